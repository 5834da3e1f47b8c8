import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

export class SubscriptionBillingApi implements ICredentialType {
	name = 'subscriptionBillingApi';

	displayName = 'Subscription Billing API';

	icon: Icon = {
		light: 'file:../icons/subscriptionBilling.svg',
		dark: 'file:../icons/subscriptionBilling.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-subscription-billing/n8n-nodes-subscription-billing#credentials';

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
		},
		{
			displayName: 'Production Base URL',
			name: 'productionBaseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://billing.example.com/api/v2',
			description:
				'Address of the production API, ending in /api/v2. Must be https, except on this machine (127.0.0.1, localhost), such as a local sandbox.',
			displayOptions: { show: { environment: ['production'] } },
		},
		{
			displayName: 'Staging Base URL',
			name: 'stagingBaseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://staging.billing.example.com/api/v2',
			description:
				'Address of the staging API, ending in /api/v2. Must be https, except on this machine (127.0.0.1, localhost), such as a local sandbox.',
			displayOptions: { show: { environment: ['staging'] } },
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				'X-SERVICE-KEY': '={{$credentials.apiKey}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL:
				'={{ String($credentials.environment === "staging" ? $credentials.stagingBaseUrl : $credentials.productionBaseUrl).trim().replace(/\\/+$/, "") }}',
			url: '/customers',
			method: 'GET',
			qs: { limit: 1 },
		},
	};
}
