import type { JsonSchema } from './toJsonSchema'

/** One row of a field table: a dotted path into the value (`data[].whitelistedMethods`). */
export type SchemaField = { name: string; type: string; required: boolean; notes: string }

const MAX_DEPTH = 5

/** A short type for people: `string`, `integer | null`, `array of string`, `"GET" | "POST"`, `any`. */
export function describeSchemaType(schema: JsonSchema): string {
  if ('const' in schema) return JSON.stringify(schema.const)
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ')
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined
  if (Array.isArray(variants)) return unique(variants.map(describeSchemaType)).join(' | ')
  const type = schema.type
  if (Array.isArray(type)) return type.map((t) => describeSchemaType({ ...schema, type: t })).join(' | ')
  if (type === 'array') {
    if (Array.isArray(schema.prefixItems))
      return `[${(schema.prefixItems as JsonSchema[]).map(describeSchemaType).join(', ')}]`
    const items = schema.items as JsonSchema | undefined
    return items ? `array of ${describeSchemaType(items)}` : 'array'
  }
  if (type === 'object') {
    const values = schema.additionalProperties
    if (!schema.properties && values && typeof values === 'object' && Object.keys(values).length > 0)
      return `object of ${describeSchemaType(values as JsonSchema)}`
    return 'object'
  }
  return typeof type === 'string' ? type : 'any'
}

/** What a schema says beyond its type: description, bounds, pattern, default. */
export function describeSchemaNotes(schema: JsonSchema): string {
  const notes: string[] = []
  if (typeof schema.description === 'string') notes.push(schema.description)
  const bound = (key: string, text: string) => {
    if (typeof schema[key] === 'number') notes.push(`${text} ${schema[key]}`)
  }
  bound('minimum', 'min')
  bound('exclusiveMinimum', 'more than')
  bound('maximum', 'max')
  bound('minLength', 'min length')
  bound('maxLength', 'max length')
  bound('minItems', 'min items')
  bound('maxItems', 'max items')
  if (typeof schema.pattern === 'string') notes.push(`pattern ${schema.pattern}`)
  if (typeof schema.format === 'string') notes.push(`format ${schema.format}`)
  if ('default' in schema) notes.push(`default ${JSON.stringify(schema.default)}`)
  return notes.join('; ')
}

/**
 * The fields of a schema, depth first: each property of an object (and of the objects in its arrays and in each
 * shape of a union) as a row. A schema that is no object is one row named `(value)`.
 */
export function listSchemaFields(schema: JsonSchema): SchemaField[] {
  const rows = new Map<string, SchemaField>()
  walk(schema, '', 0, rows)
  if (rows.size === 0)
    return [
      {
        name: '(value)',
        type: describeSchemaType(schema),
        required: true,
        notes: describeSchemaNotes(schema),
      },
    ]
  return [...rows.values()]
}

function walk(schema: JsonSchema, prefix: string, depth: number, rows: Map<string, SchemaField>): void {
  if (depth > MAX_DEPTH) return
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined
  if (Array.isArray(variants)) {
    for (const variant of variants) walk(variant, prefix, depth, rows)
    return
  }
  if (schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'))) {
    const items = schema.items as JsonSchema | undefined
    if (items) walk(items, `${prefix}[]`, depth + 1, rows)
    return
  }
  const properties = schema.properties as Record<string, JsonSchema> | undefined
  if (!properties) return
  const required = new Set((schema.required ?? []) as string[])
  for (const [key, property] of Object.entries(properties)) {
    const name = prefix ? `${prefix}.${key}` : key
    if (!rows.has(name))
      rows.set(name, {
        name,
        type: describeSchemaType(property),
        required: required.has(key),
        notes: describeSchemaNotes(property),
      })
    walk(property, name, depth + 1, rows)
  }
}

/**
 * The shapes a value may take: the members of a union (nested unions flattened), and whether null is one of them.
 * A schema that is no union is its one shape.
 */
export function listSchemaVariants(schema: JsonSchema): { variants: JsonSchema[]; nullable: boolean } {
  const members = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined
  if (!Array.isArray(members)) return { variants: [schema], nullable: false }
  const variants: JsonSchema[] = []
  let nullable = false
  for (const member of members) {
    if (member.type === 'null') {
      nullable = true
      continue
    }
    const inner = listSchemaVariants(member)
    variants.push(...inner.variants)
    nullable ||= inner.nullable
  }
  return { variants, nullable }
}

function unique(values: string[]): string[] {
  return [...new Set(values)]
}
