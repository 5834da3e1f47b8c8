export const CREDENTIAL_TYPE = 'subscriptionBillingApi';

export const MAX_PAGE_SIZE = 1000;

export const IDEMPOTENCY_HEADER = 'X-SERVICE-IDEMPOTENT-OPERATION-KEY';

/** Where the package's documentation is read (README.md on the repository's page). */
export const REPOSITORY_URL =
	'https://github.com/n8n-nodes-subscription-billing/n8n-nodes-subscription-billing';
