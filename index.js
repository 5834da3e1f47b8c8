// n8n loads the package through the `n8n` section of package.json; this entry only lists what it contains.
module.exports = {
	credentials: ['SubscriptionBillingApi'],
	nodes: ['SubscriptionBilling'],
};
