import type { INodeProperties } from 'n8n-workflow';
import type { FieldRule } from '../execute/bodyRules';

export const redirectUrlField: INodeProperties = {
	displayName: 'Redirect URL',
	name: 'redirectUrl',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. https://example.com/thank-you',
	description: 'Absolute http(s) URL the signer is sent to after signing',
	routing: { send: { type: 'body', property: 'redirect_url' } },
};

export const redirectUrlRule: FieldRule = {
	field: 'redirect_url',
	label: 'Redirect URL',
	type: 'httpUrl',
	required: true,
};
