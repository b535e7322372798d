/**
 * The HTTP status of a JSON-RPC answer, so that every client can read an error's message:
 * - JSON-RPC over HTTP answers errors with 200 and the error object. ethers v5 (userop.js and other ethers v5
 *   clients) turns any other status into an opaque "bad response (status=400, …)" error; viem and ethers v6 read
 *   the error object either way.
 * - Biconomy's SDK reads the message only from a non-2xx answer (a 2xx one with an error loses it, see
 *   biconomy-protocol.md section 2.8), and it asks for `Accept: application/json`. ethers, viem and browsers' own
 *   defaults send no Accept or `*` / `*`.
 * So an error keeps its status (400, 401, 413, 500, …, as Biconomy's services answer) for a client that asks for
 * `application/json` explicitly, and goes out with 200 to every other client.
 */
export function chooseHttpStatus(status: number, accept: string | undefined): number {
  if (status < 400) return status
  return asksForJson(accept) ? status : 200
}

function asksForJson(accept: string | undefined): boolean {
  if (!accept) return false
  const types = accept.split(',').map((part) => part.split(';')[0]!.trim().toLowerCase())
  return types.includes('application/json') && !types.includes('*/*')
}
