import type { IAuthenticateGeneric, Icon, ICredentialType, INodeProperties } from 'n8n-workflow';
import { apiKeyAuthentication } from '../nodes/SubscriptionBilling/shared/apiCredentials';

/** An http address that is not on this machine (the node refuses to send the key there). */
const PLAIN_HTTP_ELSEWHERE =
	'^\\s*[hH][tT][tT][pP]://(?!(localhost|127(\\.\\d{1,3}){3}|\\[::1\\])(:\\d+)?(/|$))';

/** Shown under a base URL as soon as it is http on another host, before the connection test says so too. */
function httpsRequiredNotice(environment: string, field: string): INodeProperties {
	return {
		displayName:
			'This base URL must use https: the API key is never sent over plain http to another machine (only localhost and 127.0.0.1 may use http). The connection test fails, and so does every run, until it starts with https://.',
		name: `${field}HttpsNotice`,
		type: 'notice',
		default: '',
		displayOptions: {
			show: { environment: [environment], [field]: [{ _cnd: { regex: PLAIN_HTTP_ELSEWHERE } }] },
		},
	};
}

export class SubscriptionBillingApi implements ICredentialType {
	name = 'subscriptionBillingApi';

	displayName = 'Subscription Billing API';

	icon: Icon = {
		light: 'file:../icons/subscriptionBilling.svg',
		dark: 'file:../icons/subscriptionBilling.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-subscription-billing/n8n-nodes-subscription-billing#credentials';

	/** Offers this credential in the HTTP Request node (Predefined Credential Type) for calls the node does not cover. */
	httpRequestNode: ICredentialType['httpRequestNode'] = {
		name: 'Subscription Billing',
		docsUrl:
			'https://github.com/n8n-nodes-subscription-billing/n8n-nodes-subscription-billing#credentials',
		apiBaseUrlPlaceholder:
			'https://billing.example.com/api/v2/subscriptions/{subscription_id}/invoices',
	};

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The service key, sent in the X-SERVICE-KEY header of every request',
		},
		{
			displayName: 'Environment',
			name: 'environment',
			type: 'options',
			options: [
				{ name: 'Production', value: 'production' },
				{ name: 'Staging', value: 'staging' },
			],
			default: 'production',
			description:
				'The environment of the service to connect to; each has its own base URL and API keys',
		},
		{
			displayName: 'Production Base URL',
			name: 'productionBaseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://billing.example.com/api/v2',
			description:
				'Address of the production API, ending in /api/v2. Must be https, except on this machine (127.0.0.1, localhost), such as a local sandbox.',
			displayOptions: { show: { environment: ['production'] } },
		},
		httpsRequiredNotice('production', 'productionBaseUrl'),
		{
			displayName: 'Staging Base URL',
			name: 'stagingBaseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://staging.billing.example.com/api/v2',
			description:
				'Address of the staging API, ending in /api/v2. Must be https, except on this machine (127.0.0.1, localhost), such as a local sandbox.',
			displayOptions: { show: { environment: ['staging'] } },
		},
		httpsRequiredNotice('staging', 'stagingBaseUrl'),
	];

	authenticate: IAuthenticateGeneric = apiKeyAuthentication;

	// Tested by the nodes (testedBy: shared/credentialTest.ts), which send the test through their
	// transport and can say why it fails: an http base URL on another machine is refused there
	// before anything is sent.
}
