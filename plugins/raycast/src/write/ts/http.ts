// Written by toolport: serialises tool inputs the way the API's OpenAPI description says.
// https://spec.openapis.org/oas/v3.1.0#style-values

type Pairs = Array<[string, string]>;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A scalar as text; objects and arrays inside a value as JSON. */
function text(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function entries(value: Record<string, unknown>): Array<[string, unknown]> {
  return Object.entries(value).filter(([, v]) => v !== undefined);
}

/** `name[key][0]=value` pairs (deepObject; nested values as Stripe, Rails and qs read them). */
function brackets(name: string, value: unknown, out: Pairs): void {
  if (Array.isArray(value)) value.forEach((item, i) => brackets(`${name}[${i}]`, item, out));
  else if (isObject(value)) for (const [k, v] of entries(value)) brackets(`${name}[${k}]`, v, out);
  else if (value !== undefined) out.push([name, text(value)]);
}

/** Pairs for a query parameter or a form field of the given style. */
function formPairs(name: string, value: unknown, style: string, explode: boolean): Pairs {
  const out: Pairs = [];
  if (value === undefined) return out;
  if (style === "deepObject") {
    brackets(name, value, out);
  } else if (Array.isArray(value)) {
    const separator = style === "spaceDelimited" ? " " : style === "pipeDelimited" ? "|" : ",";
    if (explode) for (const item of value) out.push([name, text(item)]);
    else out.push([name, value.map(text).join(separator)]);
  } else if (isObject(value)) {
    if (explode) for (const [k, v] of entries(value)) out.push([k, text(v)]);
    else out.push([name, entries(value).flatMap(([k, v]) => [k, text(v)]).join(",")]);
  } else {
    out.push([name, text(value)]);
  }
  return out;
}

/** Values given as JSON text (maps) parsed back, at each path (`*`: every item of an array). */
export function decodeJson(input: object, paths: string[][]): Record<string, unknown> {
  const at = (value: unknown, path: string[]): unknown => {
    if (path.length === 0) {
      if (typeof value !== "string") return value;
      try {
        return JSON.parse(value);
      } catch {
        return value;
      }
    }
    const [head, ...rest] = path;
    if (head === "*") return Array.isArray(value) ? value.map((item) => at(item, rest)) : value;
    if (!isObject(value) || value[head] === undefined) return value;
    return { ...value, [head]: at(value[head], rest) };
  };
  let result: unknown = input;
  for (const path of paths) result = at(result, path);
  return result as Record<string, unknown>;
}

/** A path parameter (style simple, label or matrix), encoded. */
export function pathValue(name: string, value: unknown, style: string, explode: boolean): string {
  const e = (v: unknown) => encodeURIComponent(text(v));
  const prefix = style === "label" ? "." : style === "matrix" ? `;${name}=` : "";
  if (Array.isArray(value)) {
    if (style === "matrix" && explode) return value.map((v) => `;${name}=${e(v)}`).join("");
    return prefix + value.map(e).join(explode && style === "label" ? "." : ",");
  }
  if (isObject(value)) {
    if (explode) {
      const pairs = entries(value).map(([k, v]) => `${encodeURIComponent(k)}=${e(v)}`);
      return style === "matrix" ? pairs.map((p) => `;${p}`).join("") : prefix + pairs.join(style === "label" ? "." : ",");
    }
    return prefix + entries(value).flatMap(([k, v]) => [encodeURIComponent(k), e(v)]).join(",");
  }
  return prefix + e(value);
}

/** Appends a query parameter (style form, spaceDelimited, pipeDelimited or deepObject). */
export function appendQuery(url: URL, name: string, value: unknown, style: string, explode: boolean): void {
  for (const [k, v] of formPairs(name, value, style, explode)) url.searchParams.append(k, v);
}

/** A header value (style simple). */
export function headerValue(value: unknown, explode: boolean): string {
  if (Array.isArray(value)) return value.map(text).join(",");
  if (isObject(value)) return entries(value).map(([k, v]) => (explode ? `${k}=${text(v)}` : `${k},${text(v)}`)).join(",");
  return text(value);
}

/** A cookie (style form); empty when the value is absent. */
export function cookieValue(name: string, value: unknown, explode: boolean): string {
  return formPairs(name, value, "form", explode)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join("; ");
}

/** An application/x-www-form-urlencoded body, each field by its encoding (default: form, explode). */
export function formBody(
  fields: unknown,
  encoding: Record<string, { style: string; explode: boolean }>,
): URLSearchParams {
  const body = new URLSearchParams();
  if (!isObject(fields)) return body;
  for (const [name, value] of entries(fields)) {
    const { style, explode } = encoding[name] ?? { style: "form", explode: true };
    for (const [k, v] of formPairs(name, value, style, explode)) body.append(k, v);
  }
  return body;
}

/** A multipart/form-data body: scalars as text, objects and arrays as JSON. */
export function multipartBody(fields: unknown): FormData {
  const body = new FormData();
  if (!isObject(fields)) return body;
  for (const [name, value] of entries(fields)) {
    if (Array.isArray(value)) for (const item of value) body.append(name, text(item));
    else body.append(name, text(value));
  }
  return body;
}

/** A body of another media type: text as is, anything else as JSON. */
export function rawBody(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The response as JSON or text; an error status throws with the API's message. */
export async function readResponse(response: Response, operation: string): Promise<unknown> {
  const type = response.headers.get("content-type") ?? "";
  const body = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) {
    const detail = typeof body === "string" ? body : JSON.stringify(body);
    throw new Error(`${operation} failed: ${response.status} ${response.statusText} ${detail}`.trim());
  }
  return body;
}
