// Nothing may load from elsewhere: the page is downloaded and opened offline, and its data is the owner's. The gateway
// sends the same policy as a header.
export const reportContentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
