export const CREDENTIAL_TYPE = 'subscriptionBillingApi';

export const MAX_PAGE_SIZE = 1000;

export const IDEMPOTENCY_HEADER = 'X-SERVICE-IDEMPOTENT-OPERATION-KEY';
