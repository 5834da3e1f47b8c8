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

	/** Offers this credential in the HTTP Request node (Predefined Credential Type) for calls the node does not cover. */
	httpRequestNode: ICredentialType['httpRequestNode'] = {
		name: 'Subscription Billing',
		docsUrl: 'https://github.com/n8n-nodes-subscription-billing/n8n-nodes-subscription-billing#credentials',
		apiBaseUrlPlaceholder: 'https://billing.example.com/api/v2/subscriptions/{subscription_id}/invoices',
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

	/**
	 * The base URL of the chosen environment, as the node uses it. The node refuses an http address
	 * that is not on this machine; so does the test: such an address is replaced by a host in the
	 * reserved `.invalid` domain, which never resolves, so the test fails with that name in its
	 * message ("base-url-must-use-https.invalid") and the key is sent nowhere.
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL:
				'={{ (String($credentials.environment === "staging" ? $credentials.stagingBaseUrl : $credentials.productionBaseUrl).trim().match(/^(?:https:\\/\\/.+|http:\\/\\/(?:localhost|127(?:\\.\\d{1,3}){3}|\\[::1\\])(?::\\d+)?(?:\\/.*)?)$/i) || ["https://base-url-must-use-https.invalid"])[0].replace(/\\/+$/, "") }}',
			url: '/customers',
			method: 'GET',
			qs: { limit: 1 },
		},
		rules: [
			{
				type: 'responseCode',
				properties: { value: 401, message: 'The API key was not accepted (401): check the key and the environment' },
			},
			{
				type: 'responseCode',
				properties: { value: 403, message: 'The API key may not list customers (403): check its permissions' },
			},
		],
	};
}
