'use strict';
// An OpenAI-compatible chat-model server of the tests' own, on 127.0.0.1, playing the model of an
// AI Agent by script: the first call of a conversation answers with a call of the tool `toolName`
// with `toolArguments`, the call after the tool's result answers with `finalText`. It speaks the two
// APIs n8n's OpenAI Chat Model uses: Chat Completions (`POST /v1/chat/completions`) and, its
// default from version 1.3, Responses (`POST /v1/responses`). Every request is kept (`calls`).
const http = require('node:http');

const CALL_ID = 'call_scripted_1';

/** The tool's result in a Chat Completions conversation (a `tool` message), or undefined. */
function chatToolResult(body) {
	return body.messages?.find((m) => m.role === 'tool' && m.tool_call_id === CALL_ID)?.content;
}

/** The tool's result in a Responses conversation (a `function_call_output` input item), or undefined. */
function responsesToolResult(body) {
	return Array.isArray(body.input)
		? body.input.find((i) => i.type === 'function_call_output' && i.call_id === CALL_ID)?.output
		: undefined;
}

function chatCompletion(body, script) {
	const message =
		chatToolResult(body) === undefined
			? {
					role: 'assistant',
					content: null,
					tool_calls: [
						{
							id: CALL_ID,
							type: 'function',
							function: { name: script.toolName, arguments: JSON.stringify(script.toolArguments) },
						},
					],
				}
			: { role: 'assistant', content: script.finalText };
	return {
		id: `chatcmpl-scripted-${Date.now()}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: body.model,
		choices: [
			{
				index: 0,
				message,
				logprobs: null,
				finish_reason: message.tool_calls ? 'tool_calls' : 'stop',
			},
		],
		usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
	};
}

function response(body, script) {
	const output =
		responsesToolResult(body) === undefined
			? [
					{
						type: 'function_call',
						id: 'fc_scripted_1',
						call_id: CALL_ID,
						name: script.toolName,
						arguments: JSON.stringify(script.toolArguments),
						status: 'completed',
					},
				]
			: [
					{
						type: 'message',
						id: 'msg_scripted_1',
						role: 'assistant',
						status: 'completed',
						content: [{ type: 'output_text', text: script.finalText, annotations: [] }],
					},
				];
	return {
		id: `resp_scripted_${Date.now()}`,
		object: 'response',
		created_at: Math.floor(Date.now() / 1000),
		status: 'completed',
		model: body.model,
		output,
		parallel_tool_calls: true,
		tool_choice: 'auto',
		tools: body.tools ?? [],
		usage: {
			input_tokens: 10,
			input_tokens_details: { cached_tokens: 0 },
			output_tokens: 5,
			output_tokens_details: { reasoning_tokens: 0 },
			total_tokens: 15,
		},
	};
}

/**
 * Starts the server: { baseUrl (…/v1, as an OpenAI credential's Base URL), calls, reset(), close() }.
 * `script`: { toolName, toolArguments, finalText }. A streamed request or another path is answered
 * 400 with what was asked, so a test fails saying so.
 */
async function startScriptedChatModel(script) {
	const calls = [];
	const server = http.createServer((req, res) => {
		let text = '';
		req.setEncoding('utf8');
		req.on('data', (d) => (text += d));
		req.on('end', () => {
			let body;
			try {
				body = JSON.parse(text || '{}');
			} catch {
				body = { unparsed: text };
			}
			const api = { '/v1/chat/completions': 'chat', '/v1/responses': 'responses' }[
				req.url.split('?')[0]
			];
			calls.push({
				method: req.method,
				path: req.url,
				api,
				authorization: req.headers.authorization,
				body,
			});
			const answer = (status, json) => {
				res.writeHead(status, { 'content-type': 'application/json' });
				res.end(JSON.stringify(json));
			};
			if (req.method !== 'POST' || !api)
				return answer(404, { error: { message: `not scripted: ${req.method} ${req.url}` } });
			if (body.stream)
				return answer(400, { error: { message: 'not scripted: a streamed request' } });
			answer(200, api === 'chat' ? chatCompletion(body, script) : response(body, script));
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		baseUrl: `http://127.0.0.1:${server.address().port}/v1`,
		calls,
		reset() {
			calls.length = 0;
		},
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

module.exports = { startScriptedChatModel, chatToolResult, responsesToolResult, CALL_ID };
