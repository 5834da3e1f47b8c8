import type { IHttpRequestOptions } from 'n8n-workflow';

/** A page request as the API sees it: method, address, query parameters in any order, body. */
export function pageKey(request: IHttpRequestOptions): string {
	const url = new URL(request.baseURL ? `${request.baseURL}${request.url}` : request.url);
	for (const [name, value] of Object.entries(request.qs ?? {})) {
		if (value !== undefined) url.searchParams.set(name, String(value));
	}
	url.searchParams.sort();
	return `${request.method ?? 'GET'} ${url.href} ${request.body === undefined ? '' : JSON.stringify(request.body)}`;
}

interface Planned<T> {
	key: string;
	request: IHttpRequestOptions;
	answer?: Promise<T>;
}

/**
 * Pages of a list asked for before their turn: the pages a list's `count` shows to follow, in
 * order, at most `width` of them asked for and not yet taken, and at most `width` unanswered (a
 * page taken is still in flight until its answer comes). The reader still decides every page
 * as it would one at a time and takes a page only when its request is the next one planned; any
 * other request (the list moved) ends reading ahead, and the answers to the pages asked for
 * meanwhile are dropped. A page is asked for through `send`, which waits its turn in the
 * execution's request budget; a failed page fails when it is taken, never before.
 */
export class ReadAhead<T> {
	private readonly plan: Array<Planned<T>>;
	private taken = 0;
	private asked = 0;
	private unanswered = 0;

	constructor(
		requests: IHttpRequestOptions[],
		private readonly width: number,
		private readonly send: (request: IHttpRequestOptions, index: number) => Promise<T>,
	) {
		this.plan = requests.map((request) => ({ key: pageKey(request), request }));
		this.fill();
	}

	private fill(): void {
		while (
			this.asked < this.plan.length &&
			this.asked - this.taken < this.width &&
			this.unanswered < this.width
		) {
			const planned = this.plan[this.asked];
			planned.answer = this.send(planned.request, this.asked);
			this.unanswered++;
			const answered = () => {
				this.unanswered--;
				this.fill();
			};
			// Failures are reported when the page is taken; a page never taken fails unheard.
			planned.answer.then(answered, answered);
			this.asked++;
		}
	}

	/** The answer to `request` when it is the next page planned (one more page is asked for once a page in flight is answered); undefined, and no more reading ahead, otherwise. */
	take(request: IHttpRequestOptions): Promise<T> | undefined {
		const planned = this.plan[this.taken];
		if (!planned || planned.key !== pageKey(request)) {
			this.stop();
			return undefined;
		}
		const answer = planned.answer as Promise<T>;
		planned.answer = undefined;
		this.taken++;
		this.fill();
		return answer;
	}

	/** No page is asked for from now on; the answers to those asked for and not taken are dropped. */
	stop(): void {
		for (let index = this.taken; index < this.asked; index++) this.plan[index].answer = undefined;
		this.plan.length = this.taken;
		this.asked = this.taken;
	}
}
