// A change found between two descriptions of the same API family: the rule that found it (rules/), its words, and
// where it is (operation or event, part, status, schema pointers), so that the gate and `ramp-api usage --check`
// can tell whom it breaks.

/** Where in a schema a change is: the pointer of its node, and every pointer on the way down to it. */
export interface SchemaSpot {
  pointer: string;
  trail: string[];
  /** The change is to a field a request must now carry: it breaks the calls that do not send it. */
  absent?: true;
}

/** Where a change is, for matching it with what consumers use. */
export interface ChangeLocation {
  operation?: { operationId: string; method: string; path: string };
  event?: string;
  /** `operation`: the operation or event as a whole; otherwise the part of it the change is in. */
  part: 'operation' | 'parameter' | 'request' | 'response' | 'payload';
  /** The response's status, for a change in a response. */
  status?: string;
  /** `path user_id`, for a change of a parameter. */
  parameter?: string;
  /** The schema node the change is at; absent for a change of the whole part (a media type, the body required). */
  spot?: SchemaSpot;
}

export interface Change {
  /** The id of the rule that found it (`response-enum-value-added`). */
  rule: string;
  breaking: boolean;
  /** `GET /api/accounts/{clientId} (listBankAccounts)`, or `event user.created`. */
  where: string;
  what: string;
  /** A behaviour change that is not breaking on the wire but must be seen (a changed `default`). */
  notice?: boolean;
  location?: ChangeLocation;
}
