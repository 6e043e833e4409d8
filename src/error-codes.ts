// Every fout code a door answers with, its HTTP status and when it is used: the one list.
// Migrating writes it to app.foutcodes (which maps SQLSTATEs to codes in SQL); the OpenAPI
// document and the MCP door describe errors from it.
export const errorCodes = {
  geen_sleutel: { status: 401, when: "Geen sleutel of token meegestuurd, of niet in de vorm van een sleutel van Koers." },
  sleutel_ingetrokken: { status: 401, when: "De sleutel of het token bestond, maar is ingetrokken." },
  verkeerde_organisatie: { status: 403, when: "org_id is een andere organisatie dan die van de sleutel." },
  koppeling_uit: { status: 403, when: "De koppeling van deze deur staat uit voor de organisatie." },
  onderdeel_uit: { status: 403, when: "Het onderdeel is niet vrijgegeven door een eigenaar." },
  rol_mag_niet: { status: 403, when: "De rol van de aanroeper mag dit niet, of de module staat uit." },
  alleen_lezen: { status: 403, when: "De koppeling staat op alleen lezen en de operatie schrijft." },
  herkomst_geweigerd: { status: 403, when: "Het verzoek komt van een webpagina (Origin) die de AI-koppeling niet mag gebruiken." },
  ongeldige_parameters: { status: 400, when: "Een parameter ontbreekt, heeft de verkeerde vorm of bestaat niet; parameter noemt welke." },
  onbekend_endpoint: { status: 404, when: "Het adres bestaat niet; de index op /api/v1 noemt de endpoints." },
  te_groot: { status: 413, when: "De body is te groot." },
  te_veel_verzoeken: { status: 429, when: "Te veel verzoeken; Retry-After zegt wanneer het weer kan." },
  interne_fout: { status: 500, when: "Er ging iets onverwachts mis." },
  tijdelijk_onbeschikbaar: { status: 503, when: "De database is even niet bereikbaar of te druk (ook na herhaalde pogingen); " +
    "Retry-After zegt wanneer het weer kan. Er is niets half geschreven." },
  // The HTTP door's own refusals (docs/decisions.md).
  ongeldig_verzoek: { status: 400, when: "Het HTTP-verzoek zelf is misvormd (adres, escape, syntaxis)." },
  methode_niet_toegestaan: { status: 405, when: "Het adres bestaat, maar niet met deze methode; Allow noemt de juiste." },
  niet_ondersteund: { status: 415, when: "De body heeft een content type dat Koers niet leest." },
  headers_te_groot: { status: 431, when: "De headers van het verzoek zijn te groot." },
} as const satisfies Record<string, { status: number; when: string }>;

export type ErrorCode = keyof typeof errorCodes;
