import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, PreSendAction } from 'n8n-workflow';

/** No value: absent, null or an empty string. */
export function isMissing(value: unknown): boolean {
	return value === undefined || value === null || value === '';
}

export function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The body without its empty fields; an object (such as an address) is kept only with a value in it. */
function withoutEmpty(body: IDataObject): IDataObject {
	const kept: IDataObject = {};
	for (const [field, value] of Object.entries(body)) {
		if (isMissing(value)) continue;
		if (isPlainObject(value)) {
			const inner = withoutEmpty(value);
			if (Object.keys(inner).length > 0) kept[field] = inner;
			continue;
		}
		kept[field] = value;
	}
	return kept;
}

/**
 * A preSend step for optional fields: one added in the editor but left empty means "not given",
 * so it is left out of the body instead of being sent as "".
 */
export const omitEmptyFields: PreSendAction = async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
	if (isPlainObject(requestOptions.body)) requestOptions.body = withoutEmpty(requestOptions.body);
	return requestOptions;
};

/**
 * A preSend step for an operation whose body is a JSON object of optional fields: n8n sends no
 * body at all for an empty object, so `{}` is sent as text instead.
 */
export const sendEmptyJsonObject: PreSendAction = async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
	const body = requestOptions.body;
	if (body === undefined || (isPlainObject(body) && Object.keys(body).length === 0)) {
		requestOptions.body = '{}';
		requestOptions.headers = { ...requestOptions.headers, 'Content-Type': 'application/json' };
	}
	return requestOptions;
};
