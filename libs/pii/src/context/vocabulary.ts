import type { PiiType } from "../types.ts"

/**
 * Column-name phrases per type, lower case without accents, words separated by spaces (names are normalised the
 * same way: snake_case, camelCase, kebab-case, dotted paths and digits split into words). English, German, French,
 * Spanish, Italian, Dutch and Portuguese, with common abbreviations. A phrase may name several types (a postal code
 * is a US ZIP or a UK postcode: the values decide).
 */
export const vocabulary: ReadonlyArray<readonly [ReadonlyArray<PiiType>, ReadonlyArray<string>]> = [
  [["person_name"], [
    "name", "full name", "fullname", "first name", "firstname", "fname", "given name", "last name", "lastname",
    "lname", "surname", "family name", "middle name", "forename", "cardholder", "card holder", "holder name",
    "vorname", "nachname", "familienname", "nom", "prenom", "nom de famille", "nombre", "apellido", "apellidos",
    "nombre completo", "nome", "cognome", "nome completo", "sobrenome", "voornaam", "achternaam", "naam"
  ]],
  [["email_address"], [
    "email", "e mail", "mail", "email address", "emailaddress", "courriel", "adresse mail", "correo",
    "correo electronico", "posta elettronica", "emailadres", "mailadresse", "endereco de email"
  ]],
  [["phone_number"], [
    "phone", "telephone", "tel", "phone number", "phone no", "phonenumber", "mobile", "mobile number", "cell",
    "cellphone", "cell phone", "contact number", "fax", "telefon", "telefonnummer", "handy", "handynummer",
    "telefono", "numero de telephone", "portable", "celular", "movil", "telefone", "telemovel", "cellulare",
    "telefoonnummer", "gsm", "mobiel"
  ]],
  [["social_security_number"], ["ssn", "social security", "social security number", "soc sec", "ss number", "ssn number"]],
  [["passport_number"], [
    "passport", "passport number", "passport no", "reisepass", "reisepassnummer", "passeport", "pasaporte",
    "passaporto", "paspoort", "passaporte"
  ]],
  [["drivers_license_number"], [
    "driver license", "drivers license", "driver licence", "drivers licence", "driving licence", "driving license",
    "dl number", "license number", "licence number", "fuhrerschein", "fuhrerscheinnummer", "permis de conduire",
    "licencia de conducir", "carnet de conducir", "patente di guida", "rijbewijs", "carteira de motorista", "cnh"
  ]],
  [["uk_national_insurance_number"], ["nino", "ni number", "national insurance", "national insurance number", "ni no"]],
  [["nhs_number"], ["nhs", "nhs number", "nhs no"]],
  [["canadian_social_insurance_number"], ["sin", "social insurance", "social insurance number", "numero d assurance sociale", "nas"]],
  [["national_id_number"], [
    "national id", "national id number", "id number", "identity number", "citizen id", "personal id",
    "personnummer", "personalausweis", "ausweisnummer", "steuer id", "steueridentifikationsnummer", "tax id", "tin",
    "dni", "nie", "nif", "cpf", "codice fiscale", "bsn", "burgerservicenummer", "pesel", "insee",
    "numero de securite sociale", "securite sociale", "sozialversicherungsnummer", "numero de seguridad social",
    "aadhaar", "curp", "rut", "cartao de cidadao"
  ]],
  [["date_of_birth"], [
    "dob", "d o b", "date of birth", "birth date", "birthdate", "birthday", "born", "born on", "geburtsdatum",
    "geburtstag", "date de naissance", "fecha de nacimiento", "fecha nacimiento", "data di nascita",
    "data de nascimento", "geboortedatum"
  ]],
  [["ip_address"], ["ip", "ip address", "ip addr", "ipaddress", "ipv4", "ipv6", "client ip", "remote addr", "remote ip", "ip adresse", "adresse ip", "direccion ip", "indirizzo ip"]],
  [["mac_address"], ["mac", "mac address", "macaddress", "hardware address", "mac addr", "adresse mac"]],
  [["url"], ["url", "website", "homepage", "web site", "profile url", "uri", "link", "web"]],
  [["username"], [
    "username", "user name", "login", "login name", "handle", "screen name", "nickname", "benutzername", "pseudo",
    "nom d utilisateur", "usuario", "nombre de usuario", "nome utente", "gebruikersnaam", "twitter", "instagram"
  ]],
  [["credit_card_number"], [
    "credit card", "card number", "cc", "cc number", "ccn", "card no", "pan", "creditcard", "kreditkarte",
    "kreditkartennummer", "kartennummer", "carte bancaire", "numero de carte", "carte de credit", "tarjeta",
    "numero de tarjeta", "tarjeta de credito", "carta di credito", "numero carta", "cartao", "cartao de credito",
    "creditcardnummer"
  ]],
  [["iban"], ["iban", "iban number", "iban code", "international bank account"]],
  [["bank_routing_number"], ["routing", "routing number", "aba", "aba number", "aba routing", "rtn", "routing transit number"]],
  [["bank_account_number"], [
    "account number", "bank account", "acct", "acct no", "account no", "bank account number", "kontonummer",
    "numero de compte", "numero de cuenta", "cuenta bancaria", "conto corrente", "numero conto", "rekeningnummer",
    "conta bancaria", "numero da conta"
  ]],
  [["crypto_wallet_address"], ["wallet", "wallet address", "btc address", "bitcoin address", "eth address", "ethereum address", "crypto address", "crypto wallet"]],
  [["medical_record_number"], [
    "mrn", "medical record", "medical record number", "patient id", "patient number", "chart number",
    "health record", "patientennummer", "dossier medical", "numero de historia clinica", "cartella clinica"
  ]],
  [["icd10_code"], ["icd", "icd10", "icd 10", "icd code", "diagnosis code", "dx code", "dx", "diagnosis", "diagnose", "diagnostic", "diagnostico", "diagnosi"]],
  [["npi_number"], ["npi", "npi number", "provider npi", "national provider id", "national provider identifier"]],
  [["street_address"], [
    "address", "street", "street address", "addr", "address line", "address line 1", "address 1", "address1",
    "home address", "mailing address", "postal address", "residence", "strasse", "adresse", "anschrift",
    "direccion", "domicilio", "calle", "indirizzo", "via", "adres", "straat", "endereco", "rua", "morada"
  ]],
  [["us_zip_code", "uk_postcode"], [
    "zip", "zip code", "zipcode", "postal code", "postalcode", "postcode", "post code", "plz", "postleitzahl",
    "code postal", "cp", "codigo postal", "cap", "cep"
  ]],
  [["city"], [
    "city", "town", "city name", "town name", "hometown", "home town", "village", "municipality", "locality",
    "birthplace", "birth place", "place of birth", "ort", "wohnort", "stadt", "gemeinde", "geburtsort", "ville",
    "commune", "lieu de naissance", "ciudad", "localidad", "municipio", "poblacion", "lugar de nacimiento", "citta",
    "comune", "localita", "luogo di nascita", "cidade", "municipio de residencia", "naturalidade", "plaats",
    "woonplaats", "gemeente", "stad", "geboorteplaats"
  ]],
  [["geo_coordinates"], [
    "lat", "latitude", "lng", "lon", "long", "longitude", "coordinates", "coords", "geo", "geolocation", "latlng",
    "lat lon", "lat long", "location", "gps", "breitengrad", "langengrad", "latitud", "longitud", "latitudine",
    "longitudine", "breedtegraad", "lengtegraad"
  ]]
]

/**
 * Words that make a name about something else: `phone_service`, `email_verified`, `zip_file`, `order_number`,
 * `ip_count`. A name with one of them gives no hint.
 */
export const vetoWords: ReadonlySet<string> = new Set([
  "file", "files", "count", "counts", "total", "sum", "avg", "mean", "service", "services", "type", "types",
  "status", "flag", "verified", "enabled", "opt", "optin", "format", "length", "len", "score", "rate", "ratio",
  "version", "sku", "product", "products", "order", "orders", "hash", "hashed", "created", "updated", "modified",
  "template", "valid", "validated", "is", "has", "pct", "percent", "share", "size", "category", "method", "methods",
  "campaign", "opened", "clicked", "bounced", "sent", "domain", "provider type", "plan", "release", "build",
  // Times: `event_ts`, `epoch`, `created_time` hold Unix times, which look like 9- to 13-digit ids.
  "time", "timestamp", "ts", "epoch", "unix", "millis", "ms", "seconds", "secs", "elapsed", "duration"
])

/**
 * Phrases of three letters or fewer that say a type only as the whole name (after owner words): inside a longer name
 * they mean something else (`market_cap` is no Italian CAP, `sin_value` no Canadian SIN, `pan_size` no card).
 */
export const wholeNameOnly: ReadonlySet<string> = new Set([
  "cap", "cp", "cep", "sin", "nas", "tin", "pan", "cc", "rut", "nie", "nif", "web", "uri", "dx", "aba", "rtn", "ort",
  "nom", "mac", "gsm", "via", "rua", "cnh", "nhs"
])

/**
 * Words that say whose a value is, or bare halves of a name (`employee`, `who`, `manager`, `first`, `last`): a
 * person's name when the values read as names (context/ gives them the weak `role` hint; the scan checks the values).
 */
export const personRoleWords: ReadonlySet<string> = new Set([
  "employee", "who", "manager", "contact", "customer", "client", "patient", "staff", "member", "author", "owner",
  "assignee", "assigned", "reporter", "requester", "approver", "buyer", "seller", "recipient", "sender", "driver",
  "passenger", "student", "teacher", "doctor", "physician", "nurse", "guest", "tenant", "landlord", "applicant",
  "candidate", "beneficiary", "supervisor", "agent", "rep", "salesperson", "representative", "person", "participant",
  "respondent", "subscriber", "attendee", "speaker", "worker", "volunteer", "player", "spouse", "parent", "guardian",
  "signatory", "cardholder", "holder", "first", "last", "given", "family", "middle", "mitarbeiter", "kunde",
  "ansprechpartner", "arzt", "employe", "salarie", "responsable", "empleado", "paciente", "medico", "dipendente",
  "responsabile", "medewerker", "klant", "funcionario", "colaborador", "vendedor", "titular"
])

/** Words that may stand beside role words without changing what they say (`assigned_to`, `account_manager`). */
export const roleFillers: ReadonlySet<string> = new Set([
  "to", "by", "of", "the", "primary", "secondary", "main", "account", "sales", "lead", "line", "direct", "emergency",
  "de", "du", "del", "da", "do", "van", "responsible", "1", "2", "3"
])

/** Words that make `name` mean a thing, not a person: `product_name`, `company_name`, `file_name`, `city_name`. */
export const notPersonWords: ReadonlySet<string> = new Set([
  "product", "company", "business", "brand", "item", "host", "hostname", "domain", "street", "city", "country",
  "region", "state", "department", "category", "model", "app", "project", "team", "store", "shop", "merchant",
  "bank", "vendor", "supplier", "file", "table", "column", "field", "event", "job", "task", "course", "school",
  "hospital", "organisation", "organization", "org", "firm", "species", "breed", "color", "colour", "song",
  "artist", "album", "movie", "book", "user", "display", "plan", "package", "feature", "campaign", "site", "page",
  "town", "ville", "ciudad", "citta", "cidade", "stadt", "village", "place", "road", "employer", "agency", "club",
  "venue", "hotel", "restaurant", "airline", "carrier", "institution", "university", "clinic", "pharmacy", "manufacturer"
])
