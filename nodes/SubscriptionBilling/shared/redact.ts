/** Replaces every occurrence of the secret in a text, so an echoed key never reaches output or logs. */
export function redact(text: string, secret: string | undefined): string {
	if (!secret || secret.length < 4) return text;
	return text.split(secret).join('[redacted]');
}
