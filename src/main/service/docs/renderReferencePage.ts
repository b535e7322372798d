import type { OpenApiDocument, OpenApiOperation } from './buildOpenApiDocument'
import type { OpenRpcDocument, OpenRpcMethod } from './buildOpenRpcDocument'
import {
  describeSchemaNotes,
  describeSchemaType,
  listSchemaFields,
  listSchemaVariants,
} from './describeJsonSchema'
import type { JsonSchema } from './toJsonSchema'

/** How each security scheme reads in the page. */
const CREDENTIALS: Record<string, string> = {
  authToken: '<code>authToken</code> header',
  apiKey: '<code>apiKey</code> header',
  consoleSession: 'console session cookie',
  authTokenQuery: '<code>?authToken=</code> query parameter',
}

const STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #59636e; --line: #d1d9e0; --bg: #fff; --code: #f6f8fa; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --bg: #0d1117; --code: #151b23; }
}
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
  background: var(--bg); }
.layout { display: grid; grid-template-columns: 18rem 1fr; }
nav { position: sticky; top: 0; height: 100vh; overflow-y: auto; padding: 1rem; border-right: 1px solid var(--line);
  font-size: 13px; }
nav ul { list-style: none; margin: 0 0 1rem; padding: 0; }
nav li { margin: 2px 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
nav a { color: inherit; text-decoration: none; }
nav a:hover { text-decoration: underline; }
nav h2 { font-size: 13px; text-transform: uppercase; color: var(--muted); margin: 1rem 0 .25rem; }
main { padding: 1rem 2rem 4rem; max-width: 70rem; }
h1 { margin-top: 0; }
h2 { border-bottom: 1px solid var(--line); padding-bottom: .25rem; margin-top: 2.5rem; }
article { border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; margin: 1rem 0; }
article h3 { margin: 0 0 .25rem; font-size: 16px; word-break: break-all; }
h4 { margin: .75rem 0 .25rem; font-size: 13px; text-transform: uppercase; color: var(--muted); }
h4 code { text-transform: none; }
code { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--code);
  padding: 0 .25rem; border-radius: 3px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: left; vertical-align: top; padding: .25rem .5rem; border-bottom: 1px solid var(--line); }
th { color: var(--muted); font-weight: 600; }
td.name { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; word-break: break-all; }
.method { display: inline-block; min-width: 4.5rem; text-align: center; border-radius: 4px; padding: 0 .4rem;
  margin-right: .5rem; font-size: 12px; color: #fff; background: #59636e; }
.get { background: #1f6feb; } .post { background: #1a7f37; } .patch { background: #9a6700; }
.put { background: #8250df; } .delete { background: #cf222e; }
.muted { color: var(--muted); }
.tag { display: inline-block; border: 1px solid var(--line); border-radius: 1em; padding: 0 .5rem; font-size: 12px;
  margin-right: .25rem; }
@media (max-width: 50rem) { .layout { display: block; } nav { position: static; height: auto; } }
`

/**
 * The reference page served at `/docs/`: every operation of the OpenAPI document grouped by tag (method, path,
 * credentials, parameters, body fields, answer, failures) and every JSON-RPC method of the OpenRPC document. Plain
 * HTML and one inline style sheet: no script, no external asset, so it reads offline (and from a saved file).
 */
export function renderReferencePage(openapi: OpenApiDocument, openrpc: OpenRpcDocument): string {
  const operations = listOperations(openapi)
  const nav = [
    ...openapi.tags.map(
      (tag) =>
        `<h2><a href="#${anchor(`tag-${tag.name}`)}">${escapeHtml(tag.name)}</a></h2><ul>${operations
          .filter((op) => op.operation.tags[0] === tag.name)
          .map(
            (op) =>
              `<li><a href="#${anchor(op.operation.operationId)}" title="${op.method.toUpperCase()} ${escapeHtml(op.path)}"><span class="muted">${op.method.toUpperCase()}</span> ${escapeHtml(op.path)}</a></li>`,
          )
          .join('')}</ul>`,
    ),
    `<h2><a href="#json-rpc-methods">JSON-RPC methods</a></h2><ul>${openrpc.methods
      .map((m) => `<li><a href="#${anchor(`rpc-${m.name}`)}">${escapeHtml(m.name)}</a></li>`)
      .join('')}</ul>`,
  ].join('')
  const sections = openapi.tags.map((tag) =>
    [
      `<section id="${anchor(`tag-${tag.name}`)}"><h2>${escapeHtml(tag.name)}</h2><p>${inline(tag.description)}</p>`,
      ...operations.filter((op) => op.operation.tags[0] === tag.name).map(renderOperation),
      '</section>',
    ].join('\n'),
  )
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Opstation API reference</title>
<style>${STYLE}</style>
</head>
<body>
<div class="layout">
<nav>${nav}</nav>
<main>
<h1>Opstation API reference</h1>
<p class="muted">Version ${escapeHtml(openapi.info.version)}. Generated from the routes' and methods' own schemas.
Machine-readable: <a href="openapi.json">openapi.json</a> (OpenAPI 3.1, the REST and console API) and
<a href="openrpc.json">openrpc.json</a> (OpenRPC, the bundler and paymaster methods).</p>
${paragraphs(openapi.info.description)}
${sections.join('\n')}
<section id="json-rpc-methods"><h2>JSON-RPC methods</h2>
${paragraphs(openrpc.info.description)}
<table><tr><th>endpoint</th><th>URL</th><th>what</th></tr>${openrpc.servers
    .map(
      (s) =>
        `<tr><td>${escapeHtml(s.name)}</td><td><code>${escapeHtml(s.url)}</code></td><td>${inline(s.summary)}</td></tr>`,
    )
    .join('')}</table>
${openrpc.methods.map(renderMethod).join('\n')}
</section>
</main>
</div>
</body>
</html>
`
}

type ListedOperation = { method: string; path: string; operation: OpenApiOperation }

function listOperations(openapi: OpenApiDocument): ListedOperation[] {
  return Object.entries(openapi.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method, path, operation })),
  )
}

function renderOperation({ method, path, operation }: ListedOperation): string {
  const parts = [
    `<article id="${anchor(operation.operationId)}">`,
    `<h3><span class="method ${method}">${method.toUpperCase()}</span><code>${escapeHtml(path)}</code></h3>`,
    `<p>${inline(operation.summary)}</p>`,
    operation.description ? paragraphs(operation.description) : '',
    `<h4>Credentials</h4><p>${describeSecurity(operation.security)}</p>`,
  ]
  if (operation.parameters?.length)
    parts.push(
      '<h4>Parameters</h4>',
      table(
        ['name', 'in', 'type', 'required', 'notes'],
        operation.parameters.map((p) => [
          `<code>${escapeHtml(p.name)}</code>`,
          p.in,
          escapeHtml(describeSchemaType(p.schema)),
          p.required ? 'yes' : 'no',
          inline([p.description, describeSchemaNotes(p.schema)].filter(Boolean).join('; ')),
        ]),
      ),
    )
  const body = operation.requestBody?.content['application/json'].schema
  if (body)
    parts.push(
      `<h4>Request body${operation.requestBody?.required ? '' : ' (optional)'}: <code>application/json</code></h4>`,
      fieldTable(body),
    )
  for (const [status, response] of Object.entries(operation.responses)) {
    const [contentType, content] = Object.entries(response.content ?? {})[0] ?? []
    if (status === '200') {
      parts.push(
        `<h4>Answer 200${contentType ? `: <code>${escapeHtml(contentType)}</code>` : ''}</h4>`,
        `<p>${inline(response.description)}</p>`,
        content && contentType === 'application/json' ? fieldTable(content.schema) : '',
      )
    }
  }
  const failures = Object.entries(operation.responses).filter(([status]) => status !== '200')
  if (failures.length > 0)
    parts.push(
      '<h4>Failures</h4>',
      table(
        ['status', 'when'],
        failures.map(([status, r]) => [status, inline(r.description)]),
      ),
    )
  parts.push('</article>')
  return parts.filter(Boolean).join('\n')
}

function renderMethod(method: OpenRpcMethod): string {
  const params =
    method.params.length === 0
      ? '<p class="muted">No params.</p>'
      : table(
          ['#', 'name', 'type', 'required', 'notes'],
          method.params.map((p, i) => [
            String(i),
            `<code>${escapeHtml(p.name)}</code>`,
            escapeHtml(describeSchemaType(p.schema)),
            p.required === false ? 'no' : 'yes',
            inline([p.description, describeSchemaNotes(p.schema)].filter(Boolean).join('; ')),
          ]),
        )
  // The fields of each object param (a UserOperation, a paymaster context) below the list.
  const objectParams = method.params
    .filter((p) => listSchemaVariants(p.schema).variants.some((v) => v.properties))
    .map((p) => `<h4>Param <code>${escapeHtml(p.name)}</code></h4>${fieldTable(p.schema)}`)
  return [
    `<article id="${anchor(`rpc-${method.name}`)}">`,
    `<h3><code>${escapeHtml(method.name)}</code></h3>`,
    `<p>${method.tags.map((t) => `<span class="tag">${escapeHtml(t.name)}</span>`).join('')} ${inline(method.summary)}</p>`,
    '<h4>Params</h4>',
    params,
    ...objectParams,
    '<h4>Result</h4>',
    method.result.description ? `<p>${inline(method.result.description)}</p>` : '',
    fieldTable(method.result.schema),
    '</article>',
  ]
    .filter(Boolean)
    .join('\n')
}

/** The fields of a schema; a union of objects (the answer of each EntryPoint version) as one table per shape. */
function fieldTable(schema: JsonSchema): string {
  const { variants, nullable } = listSchemaVariants(schema)
  const orNull = nullable ? '<p class="muted">Or <code>null</code>.</p>' : ''
  if (variants.length > 1 && variants.every((v) => v.type === 'object' && v.properties)) {
    const shapes = variants.map(
      (variant, i) =>
        `<p class="muted">${i + 1}.${typeof variant.description === 'string' ? ` ${inline(variant.description)}` : ''}</p>${fields(variant)}`,
    )
    return `<p class="muted">One of ${variants.length} shapes:</p>${shapes.join('')}${orNull}`
  }
  return `${fields(variants.length === 1 && variants[0] ? variants[0] : schema)}${orNull}`
}

function fields(schema: JsonSchema): string {
  return table(
    ['field', 'type', 'required', 'notes'],
    listSchemaFields(schema).map((f) => [
      escapeHtml(f.name),
      escapeHtml(f.type),
      f.required ? 'yes' : 'no',
      inline(f.notes),
    ]),
    [0],
  )
}

function table(headers: string[], rows: string[][], nameColumns: number[] = []): string {
  const head = `<tr>${headers.map((h) => `<th>${h}</th>`).join('')}</tr>`
  const body = rows
    .map(
      (row) =>
        `<tr>${row.map((cell, i) => `<td${nameColumns.includes(i) ? ' class="name"' : ''}>${cell}</td>`).join('')}</tr>`,
    )
    .join('')
  return `<table>${head}${body}</table>`
}

function describeSecurity(security: OpenApiOperation['security']): string {
  if (!security || security.length === 0) return 'None.'
  return security
    .map((alternative) =>
      Object.keys(alternative)
        .map((name) => CREDENTIALS[name] ?? escapeHtml(name))
        .join(' and '),
    )
    .join(', or ')
    .concat('.')
}

/** Markdown-ish text (paragraphs, `code`) as HTML. */
function paragraphs(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((p) => `<p>${inline(p)}</p>`)
    .join('\n')
}

/** One line of text with its `code` spans as HTML. */
function inline(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>')
}

function anchor(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]+/g, '-')
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}
