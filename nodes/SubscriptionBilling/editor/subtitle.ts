import type { ResourceDefinition } from './resource';

/**
 * The canvas subtitle: the operation and resource as the editor's pickers show them
 * ("Get Many for Customer: Invoice"), not their stored values. A flat lookup keeps `}}` out of the
 * expression; anything not in it (n8n's Custom API Call) shows the stored values.
 */
export function operationSubtitle(resources: ResourceDefinition[]): string {
	const names = Object.fromEntries(
		resources.flatMap((resource) =>
			resource.operations.map((operation) => [`${resource.value}.${operation.value}`, `${operation.name}: ${resource.name}`]),
		),
	);
	const key = '$parameter["resource"] + "." + $parameter["operation"]';
	return `={{ (${JSON.stringify(names)})[${key}] || $parameter["operation"] + ": " + $parameter["resource"] }}`;
}
