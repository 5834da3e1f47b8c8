import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

/**
 * The HTTP client of the credential test, whose context offers only `helpers.request` (deprecated,
 * and refused by n8n's community-node rules): a GET the transport builds, sent with the
 * runtime's fetch. Redirects are never followed; the body comes back as text. The transport's
 * abort signal bounds the wait (the credential test's attempt lasts as long as its request).
 */
export async function fetchRequest(options: IHttpRequestOptions): Promise<IN8nHttpFullResponse> {
	const url = new URL(`${options.baseURL ?? ''}${options.url}`);
	for (const [name, value] of Object.entries(options.qs ?? {})) url.searchParams.set(name, String(value));
	const response = await fetch(url, {
		method: options.method ?? 'GET',
		headers: { Accept: 'application/json', ...(options.headers as Record<string, string>) },
		redirect: 'manual',
		signal: options.abortSignal as AbortSignal | undefined,
	});
	const headers: IDataObject = Object.fromEntries(response.headers);
	return { statusCode: response.status, headers, body: await response.text() };
}
