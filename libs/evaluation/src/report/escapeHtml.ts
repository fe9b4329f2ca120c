const entities: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" }

/** Text for HTML and SVG, in element content and in quoted attribute values alike: user data never becomes markup. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => entities[character]!)
