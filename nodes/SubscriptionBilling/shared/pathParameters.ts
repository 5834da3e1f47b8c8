import type { IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { checkedId, ID, PATH_IDS } from './idChecks';
import { invalidInput } from './invalidInput';

/** The ID pattern, for trigger/events/subscriptionDetails.ts until it reads ID from shared/idChecks.ts. */
export const ID_PATTERN = ID.pattern;

/** Fills the `{name}` placeholders of the operation's path with checked ids (shared/idChecks.ts). */
export async function fillPathParameters(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	requestOptions.url = requestOptions.url.replace(/\{(\w+)\}/g, (_, name: string) => {
		const { label, check } = PATH_IDS[name];
		const checked = checkedId(this.getNodeParameter(name, undefined, { extractValue: true }), check);
		if ('problem' in checked) throw invalidInput(this, label, checked.problem);
		return encodeURIComponent(checked.id);
	});
	return requestOptions;
}
