// Answers the CLI's structured side calls (model router, next-speaker check, session titles…) with
// the smallest value their JSON schema accepts: the first enum value, the minimum of a number, an
// empty list, a short string. The CLI validates them, so a shape it does not expect fails loudly.

type Schema = Readonly<Record<string, unknown>>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

export function valueFor(schema: unknown, depth = 0): unknown {
  if (!isSchema(schema) || depth > 8) return null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = String(schema.type ?? '').toLowerCase();
  switch (type) {
    case 'object': {
      const properties = isSchema(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required.map(String) : Object.keys(properties);
      return Object.fromEntries(required.map((name) => [name, valueFor(properties[name], depth + 1)]));
    }
    case 'array':
      return [];
    case 'number':
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return false;
    case 'string':
      return 'stand-in';
    default:
      return null;
  }
}

/** The schema a request asks its answer to follow, if any. */
export function responseSchema(generationConfig: Readonly<Record<string, unknown>> | undefined): unknown {
  return generationConfig?.responseJsonSchema ?? generationConfig?.responseSchema;
}
