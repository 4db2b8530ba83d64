/**
 * Flag state names as sanctions lists write them -> ISO 3166-1 alpha-2.
 * Lists publish the flag as free text ("St. Kitts & Nevis", "Democratic People's
 * Republic of Korea", "Korea, North"); a screening user wants the code, but only
 * when the text unambiguously names a country: unknown text yields null, never a guess.
 */

// One line per code: the code, then the names and variants seen in lists, "|"-separated.
const TABLE = `
AD:Andorra
AE:United Arab Emirates|UAE
AF:Afghanistan
AG:Antigua and Barbuda|Antigua
AI:Anguilla
AL:Albania
AM:Armenia
AO:Angola
AR:Argentina
AS:American Samoa
AT:Austria
AU:Australia
AW:Aruba
AZ:Azerbaijan
BA:Bosnia and Herzegovina
BB:Barbados
BD:Bangladesh
BE:Belgium
BF:Burkina Faso
BG:Bulgaria
BH:Bahrain
BI:Burundi
BJ:Benin
BM:Bermuda
BN:Brunei|Brunei Darussalam
BO:Bolivia
BR:Brazil
BS:Bahamas|The Bahamas
BT:Bhutan
BW:Botswana
BY:Belarus
BZ:Belize
CA:Canada
CD:Democratic Republic of the Congo|Congo, Democratic Republic of the|DR Congo
CF:Central African Republic
CG:Congo|Republic of the Congo|Congo, Republic of the
CH:Switzerland
CI:Cote d'Ivoire|Ivory Coast
CK:Cook Islands
CL:Chile
CM:Cameroon
CN:China|People's Republic of China
CO:Colombia
CR:Costa Rica
CU:Cuba
CV:Cabo Verde|Cape Verde
CW:Curacao
CY:Cyprus
CZ:Czechia|Czech Republic
DE:Germany
DJ:Djibouti
DK:Denmark
DM:Dominica
DO:Dominican Republic
DZ:Algeria
EC:Ecuador
EE:Estonia
EG:Egypt
ER:Eritrea
ES:Spain
ET:Ethiopia
FI:Finland
FJ:Fiji
FK:Falkland Islands
FM:Micronesia|Federated States of Micronesia|Micronesia, Federated States of
FO:Faroe Islands|Faroes
FR:France
GA:Gabon
GB:United Kingdom|UK|Great Britain
GD:Grenada
GE:Georgia
GH:Ghana
GI:Gibraltar
GL:Greenland
GM:Gambia|The Gambia
GN:Guinea
GQ:Equatorial Guinea
GR:Greece
GT:Guatemala
GW:Guinea-Bissau|Guinea Bissau
GY:Guyana
HK:Hong Kong|Hong Kong, China|Hong Kong SAR
HN:Honduras
HR:Croatia
HT:Haiti
HU:Hungary
ID:Indonesia
IE:Ireland
IL:Israel
IM:Isle of Man
IN:India
IQ:Iraq
IR:Iran|Islamic Republic of Iran|Iran, Islamic Republic of
IS:Iceland
IT:Italy
JM:Jamaica
JO:Jordan
JP:Japan
KE:Kenya
KG:Kyrgyzstan
KH:Cambodia
KI:Kiribati
KM:Comoros|Union of the Comoros
KN:Saint Kitts and Nevis|St Kitts and Nevis|St Kitts
KP:Democratic People's Republic of Korea|North Korea|Korea, North|DPRK|Korea, Democratic People's Republic of
KR:Republic of Korea|South Korea|Korea, South|Korea, Republic of
KW:Kuwait
KY:Cayman Islands
KZ:Kazakhstan
LA:Laos|Lao People's Democratic Republic
LB:Lebanon
LC:Saint Lucia|St Lucia
LI:Liechtenstein
LK:Sri Lanka
LR:Liberia
LS:Lesotho
LT:Lithuania
LU:Luxembourg
LV:Latvia
LY:Libya
MA:Morocco
MC:Monaco
MD:Moldova|Republic of Moldova
ME:Montenegro
MG:Madagascar
MH:Marshall Islands
MK:North Macedonia|Macedonia
ML:Mali
MM:Myanmar|Burma
MN:Mongolia
MO:Macao|Macau
MR:Mauritania
MT:Malta
MU:Mauritius
MV:Maldives
MW:Malawi
MX:Mexico
MY:Malaysia
MZ:Mozambique
NA:Namibia
NG:Nigeria
NI:Nicaragua
NL:Netherlands|The Netherlands
NO:Norway
NP:Nepal
NR:Nauru
NU:Niue
NZ:New Zealand
OM:Oman
PA:Panama
PE:Peru
PG:Papua New Guinea
PH:Philippines
PK:Pakistan
PL:Poland
PT:Portugal
PW:Palau
PY:Paraguay
QA:Qatar
RO:Romania
RU:Russia|Russian Federation
RW:Rwanda
SA:Saudi Arabia
SB:Solomon Islands
SC:Seychelles
SD:Sudan
SE:Sweden
SG:Singapore
SI:Slovenia
SK:Slovakia
SL:Sierra Leone
SN:Senegal
SO:Somalia
SR:Suriname
ST:Sao Tome and Principe
SV:El Salvador
SY:Syria|Syrian Arab Republic
SZ:Eswatini|Swaziland
TC:Turks and Caicos Islands
TD:Chad
TG:Togo
TH:Thailand
TJ:Tajikistan
TL:Timor-Leste|East Timor
TM:Turkmenistan
TN:Tunisia
TO:Tonga
TR:Turkey|Turkiye
TT:Trinidad and Tobago
TV:Tuvalu
TW:Taiwan
TZ:Tanzania|United Republic of Tanzania|Tanzania, United Republic of
UA:Ukraine
UG:Uganda
US:United States|United States of America|USA
UY:Uruguay
UZ:Uzbekistan
VC:Saint Vincent and the Grenadines|St Vincent and the Grenadines|St Vincent and Grenadines
VE:Venezuela
VG:British Virgin Islands|Virgin Islands, British
VN:Vietnam|Viet Nam
VU:Vanuatu
WS:Samoa
YE:Yemen
ZA:South Africa
ZM:Zambia
ZW:Zimbabwe
`;

function normalise(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/\bst\.?(?=\s)/g, "saint")
    .replace(/[’']/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
    .replace(/^the /, "");
}

const BY_NAME: Map<string, string> = (() => {
  const map = new Map<string, string>();
  for (const line of TABLE.split("\n")) {
    const m = /^([A-Z]{2}):(.+)$/.exec(line.trim());
    if (!m) continue;
    for (const name of m[2]!.split("|")) map.set(normalise(name), m[1]!);
  }
  return map;
})();

/** ISO2 of a published flag, or null when the text is empty, "None Identified", or unknown. */
export function flagToIso2(flag: string | null | undefined): string | null {
  if (!flag) return null;
  const key = normalise(flag);
  if (key === "") return null;
  return BY_NAME.get(key) ?? null;
}
