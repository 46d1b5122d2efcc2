// The ledger of the source document: one row per statement it makes about behaviour the sandbox can show (what
// is returned, in which format, defaults, limits, states and transitions, refusals, events, delivery, tokens),
// gone through section by section, table row by table row. Each row says the statement in our words, where the
// source says it (its section, the line and a few of its words), and either the test that proves it against a
// running sandbox or why it cannot be shown locally. Plain data, read by the ledger's own test
// (./ledger.test.ts), by the reporter that checks each named test ran and passed
// (scripts/test-setup/ledger-reporter.ts) and by `npm run ledger`, which renders docs/ledger.md. Never imported by
// the sandbox itself (tests and scripts only; the package's build leaves this folder out).

/** Why a statement cannot be shown by a local sandbox. */
export type Reason =
  /** The source says the thing is not shown, or only names it: there is nothing to hold the sandbox to. */
  | 'not-shown'
  /** A fact of the real service's deployments or providers (test and production, parameter records, base addresses). */
  | 'deployment'
  /** A fact of the description or of the document, not of any answer. */
  | 'document';

export const REASONS: Record<Reason, string> = {
  'not-shown': 'the source says it is not shown, or only names it: no behaviour to hold the sandbox to',
  deployment: "a fact of the real service's deployments or providers, which a local sandbox does not have",
  document: 'a fact of the document or the descriptions, not of any answer',
};

interface TestRef {
  /** The test file, from the repository root. */
  file: string;
  /** The test's own title (the `it` name, without its describe blocks). */
  name: string;
}

export interface Row {
  /** Stable and unique: `section.subject`. */
  id: string;
  /** The source's section (its `##` or `###` heading). */
  section: string;
  /** The line of the source document the statement is on (its first line, for a statement over several). */
  line: number;
  /** A few words of that line, exactly as the source has them, so a reader finds it and a check can confirm the line. */
  quote: string;
  /** The statement, in our own words. */
  statement: string;
  /** The test that proves it against a running sandbox. */
  test?: TestRef;
  /** Or why it cannot be shown locally. */
  untestable?: { reason: Reason; why: string };
  /** Where the sandbox once disagreed with the statement: what it did, and how that was settled. */
  settled?: string;
}

const STATEMENTS = 'src/sandbox/fidelity/statements.test.ts';
const FLOW = 'src/sandbox/resources/flow.test.ts';
const DELIVERY = 'src/sandbox/events/delivery.test.ts';
const TOKENS = 'src/sandbox/resources/tokens.test.ts';

const s = (name: string): TestRef => ({ file: STATEMENTS, name });
const flow = (name: string): TestRef => ({ file: FLOW, name });
const delivery = (name: string): TestRef => ({ file: DELIVERY, name });
const tokens = (name: string): TestRef => ({ file: TOKENS, name });

// The tests named by more than one row.
const FAMILIES = s(
  'serves the Business API under /api/ with its token at POST /api/token, and the v1 API under /api/v1/ with its token at POST /api/v1/client/token',
);
const BEARER = s('requires a bearer token on every call but the bank directory, and takes JSON bodies only');
const WALLET = s(
  'creates a wallet with 200: accepted, custodial, masked address, the token, network and custodian records, registerDate and owner',
);
const NETWORKS = s('creates wallets on POLYGON by default or on SUI, needs a token, and refuses another network');
const WALLET_LIST = s('lists the custody wallets of one owner as an array, addresses masked');
const BALANCE = s('reads a balance as decimal text with its token, live: a deposit shows on the next read');
const TRANSFER = s(
  'lists transfers with every field of the source in its type, between custody wallet IDs, in pending, completed and cancelled',
);
const TRANSFER_LIST = flow(
  'lists wallet transfers newest first, at most 10, with the status, date and originWallet filters',
);
const RECEIVES = TRANSFER_LIST; // the wallets are created and receive a transfer at once
const ACCOUNTS = s(
  'lists bank accounts with every field of the source: as registered, in_review at first, accepted after review, metadata empty, the owner',
);
const BANKS = s('answers the bank directory without a token: active banks, id and status as text');
const REGISTERED = s(
  'answers a registration with user_id, status success, a message and the record, pending on both statuses',
);
const PERSON = s(
  'answers the person with a lowercase document type, the second surname in lastName and the second given name in middleName, and pep',
);
const CONTACTS = s(
  'answers contactsData with the e-mail and the phone in international format, whatever format the phone was sent in',
);
const ADDITIONAL = s('answers additionalInfo with the on-ramp and off-ramp multipliers, typed number, of the person');
const REQUIRED = s('refuses a registration missing any field the source marks required');
const FORMATS = s(
  'takes blank second names, leaves the optional fields optional, and refuses a bad e-mail, a date not YYYY-MM-DD or a document type other than CC',
);
const INTEGRATION_HEADER = flow(
  "needs x-integration-register for registration: missing is 422, another client's is 401",
);
const KYC = s('answers { url } for a user, with or without template_id and custom_metadata_name, and takes no body');
const ADMIN_USERS = s('takes an ID from the admin users list as the user_id of the KYC link, payout and on-ramp calls');
const PAYOUT = s(
  'creates a payout PENDING with id, currency, amount and the rail, debited from the user’s balance, to an accepted account only',
);
const PAYOUT_REQUIRED = s('refuses a payout without amount, currency or destinationId');
const PAYOUT_FLOW = flow(
  'starts bank accounts in_review; a payout needs an accepted account of the user and enough balance, debits it and starts PENDING',
);
const ONRAMP = s(
  'answers operation, tierEscalation null and depositInfo, the operation with every field of the source: COP paid, the stablecoin to the external wallet',
);
const ONRAMP_DEFAULTS = s(
  'pays by DAVIPLATA and executes NORMAL by default, takes PSE with a bankCode and NEQUI with a phone, and refuses an on-ramp without amount or destination or with a method, mode or destination type not listed',
);
const ONRAMP_BANKS = s('takes for PSE a bankCode from the admin banks list, and refuses one that is not in it');
const REDIRECT = s('sends the user back to the redirectUrl after paying by PSE');
const ESCALATION = s(
  'answers a tierEscalation with actionType, actionPayload, message and expiresAt when the on-ramp exceeds the tier',
);
const ONRAMP_403 = flow('refuses a user that does not exist or is not approved with 403');
const ONRAMP_422 = flow(
  'refuses with 422 an invalid body, an amount of 0 or less, a pair not enabled, PSE without bankCode, and an unusable destination',
);
const ONRAMP_TIER = flow(
  'refuses an operation over the tier limit with 422 and a tierEscalation; within it, tierEscalation is null and depositInfo set',
);
const ONRAMP_400 = flow(
  'answers 400 for insufficient funds when the on-ramp is paid from the balance (INVERSE), with depositInfo null',
);
const WEBHOOK_DELETE = s(
  'deactivates a webhook: the answer is the webhook with id, method, process, status false, url and owner, its configuration kept',
);
const ENDPOINT = s(
  'registers an endpoint: the answer is id, isActive as sent and registerDate, an ISO 8601 timestamp of the creation',
);
const ENDPOINT_REFUSALS = s(
  'refuses an endpoint without name, direction, url or httpMethod, another direction or method, a url over 500 characters, an unknown event, and a name used before',
);
const EVENTS = s('takes every event of the source as triggerEvent');
const NO_AUTH = s(
  'calls an endpoint registered without authType with POST and no credentials, only for its triggerEvent',
);
const OWN_SCHEDULE = s(
  'counts a call unanswered within timeoutMs as failed, and retries up to max_attempts calls, the first after initial_delay_ms and each later delay times multiplier',
);
const DEFAULT_SCHEDULE = delivery(
  "delivers a flow's events to the receiver, retries a failing endpoint on the schedule, skips inactive ones, and redelivers",
);
const PROCESS_DELIVERY = delivery(
  'sends a business webhook the events of its process, and nothing more once it is deleted',
);
const NOT_APPROVED = flow(
  "refuses custody and transfer calls for a user that is not approved (403), accepts the client's own ID",
);
const BALANCE_NOT_APPROVED = s(
  'refuses the balance of a wallet whose owner is not approved, and reads the client’s own',
);
const TOKEN_EXPIRY = tokens(
  'a Business token is refused 5 minutes after issue in sandbox time (advanceClock), not before',
);
const JWT = tokens(
  "Business and v1: HS256, signed with the sandbox's key, iat and exp in sandbox time, sub naming the client",
);
const OTHER_FAMILY = flow('refuses a token of the other family or of no tenant with 401');
const DATES = s('refuses a date filter that is not YYYY-MM-DD');

const notShown = (why: string) => ({ reason: 'not-shown' as const, why });

export const ledger: readonly Row[] = [
  // # Business and Ramp Service Interface (the preamble)
  {
    id: 'families.business',
    section: 'Business and Ramp Service Interface',
    line: 7,
    quote: '| Business API | {base_url} | /api/... | POST /api/token |',
    statement: 'The Business API lives under the path prefix /api/ and issues its tokens at POST /api/token.',
    test: FAMILIES,
  },
  {
    id: 'families.v1',
    section: 'Business and Ramp Service Interface',
    line: 8,
    quote: '| v1 API | {v1_base_url} | /api/v1/... | POST /api/v1/client/token |',
    statement: 'The v1 API lives under the path prefix /api/v1/ and issues its tokens at POST /api/v1/client/token.',
    test: FAMILIES,
  },
  {
    id: 'families.deployments',
    section: 'Business and Ramp Service Interface',
    line: 10,
    quote: 'The business API has a test and a production deployment.',
    statement: 'The Business API has a test and a production deployment, whose parameter record IDs can differ.',
    untestable: {
      reason: 'deployment',
      why: 'The sandbox is one local deployment; it has no test and production pair.',
    },
  },

  // ## What the service does
  {
    id: 'does.wallet-usable',
    section: 'What the service does',
    line: 16,
    quote: 'A wallet is created already usable and can receive funds immediately.',
    statement: 'A custody wallet is usable as soon as it is created: it can receive funds at once.',
    test: RECEIVES,
  },
  {
    id: 'does.balances-transfers',
    section: 'What the service does',
    line: 17,
    quote: 'Read custody wallet balances and list wallet-to-wallet transfers.',
    statement: 'Custody wallet balances can be read and wallet-to-wallet transfers listed.',
    test: TRANSFER_LIST,
  },
  {
    id: 'does.account-accepted',
    section: 'What the service does',
    line: 18,
    quote: 'An account must be in the accepted state to be used in an order.',
    statement: 'A bank account can only be used (as a payout destination) once it is accepted.',
    test: PAYOUT,
  },
  {
    id: 'does.bank-directory',
    section: 'What the service does',
    line: 19,
    quote: 'Read a public directory of active banks.',
    statement: 'The bank directory is public and lists active banks.',
    test: BANKS,
  },
  {
    id: 'does.users-kyc',
    section: 'What the service does',
    line: 20,
    quote: 'Register users with identity and financial information, and generate an identity-verification (KYC) link',
    statement: 'Users are registered with identity and financial information, and a KYC link is generated for one.',
    test: ADMIN_USERS,
  },
  {
    id: 'does.payout-source',
    section: 'What the service does',
    line: 21,
    quote: "Pay out fiat from a user's balance to an approved bank account.",
    statement: "A payout takes fiat from the user's balance to an approved bank account.",
    test: PAYOUT,
  },
  {
    id: 'does.on-ramp',
    section: 'What the service does',
    line: 22,
    quote: 'the user pays fiat (COP) and receives a stablecoin in a registered external wallet.',
    statement: 'An on-ramp has the user pay COP and receive a stablecoin in a registered external wallet.',
    test: ONRAMP,
  },
  {
    id: 'does.webhooks',
    section: 'What the service does',
    line: 23,
    quote: 'Register and deactivate webhook endpoints that receive event notifications.',
    statement: 'Webhook endpoints are registered, and deactivated, to receive event notifications.',
    test: DEFAULT_SCHEDULE,
  },
  {
    id: 'does.ramp-orders',
    section: 'What the service does',
    line: 25,
    quote: 'Ramp order endpoints of the business API',
    statement: 'The Business API has ramp order endpoints (create and read on-ramp and off-ramp orders).',
    untestable: notShown('The source does not show them, so the descriptions and the sandbox have none.'),
  },

  // ## Resources and their fields: custody wallet
  {
    id: 'wallet.id',
    section: 'Custody wallet',
    line: 33,
    quote: '| id | string (uuid) | Wallet identifier. |',
    statement: 'A custody wallet has a UUID `id`.',
    test: WALLET,
  },
  {
    id: 'wallet.masked',
    section: 'Custody wallet',
    line: 34,
    quote: 'Blockchain address, partially masked in responses.',
    statement: 'The wallet address (`wallet`) is answered partially masked.',
    test: WALLET,
  },
  {
    id: 'wallet.supported-token',
    section: 'Custody wallet',
    line: 35,
    quote: '| supportedToken | object | id (integer), token (string), status (boolean). |',
    statement: '`supportedToken` is an object of an integer `id`, the `token` symbol and a boolean `status`.',
    test: WALLET,
  },
  {
    id: 'wallet.supported-network',
    section: 'Custody wallet',
    line: 36,
    quote: '| supportedNetwork | object | id (integer), name (string), status (boolean). |',
    statement: '`supportedNetwork` is an object of an integer `id`, the network `name` and a boolean `status`.',
    test: WALLET,
  },
  {
    id: 'wallet.supported-custodian',
    section: 'Custody wallet',
    line: 37,
    quote: 'Identifies the service itself as custodian.',
    statement:
      '`supportedCustodian` is an object of a `code`, an integer `id`, a `name` and a boolean `status`, the same custodian (the service) for every wallet.',
    test: WALLET,
  },
  {
    id: 'wallet.status',
    section: 'Custody wallet',
    line: 38,
    quote: '| status | string | `accepted` on creation. |',
    statement: 'A new custody wallet has `status` `accepted`.',
    test: WALLET,
  },
  {
    id: 'wallet.custodial',
    section: 'Custody wallet',
    line: 39,
    quote: '| isCustodial | boolean | `true`.',
    statement: '`isCustodial` is the boolean `true`.',
    test: WALLET,
  },
  {
    id: 'wallet.register-date',
    section: 'Custody wallet',
    line: 40,
    quote: '| registerDate | string | Format `YYYY-MM-DD HH:MM:SS.ffffff`. |',
    statement: "A wallet's `registerDate` is text in the form `YYYY-MM-DD HH:MM:SS.ffffff` (not ISO 8601).",
    test: WALLET,
  },
  {
    id: 'wallet.owner',
    section: 'Custody wallet',
    line: 41,
    quote: '| userId | string (uuid) | Owner: the client ID or one of its users. |',
    statement: "A wallet's `userId` is its owner: the client's own ID or the user's.",
    test: WALLET,
  },

  // Wallet transfer
  {
    id: 'transfer.fields',
    section: 'Wallet transfer',
    line: 47,
    quote: '| id | string (uuid) |',
    statement:
      'A wallet transfer carries every listed field in its type: UUIDs for `id` and the client IDs, text for the number, type, track type and both statuses, a boolean `isGroup`, `parentId` text or null, numbers for both amounts and token symbols for both symbols.',
    test: TRANSFER,
  },
  {
    id: 'transfer.wallet-ids',
    section: 'Wallet transfer',
    line: 56,
    quote: '| walletOriginId, walletDestinationId | string (uuid), custody wallet IDs |',
    statement:
      '`walletOriginId` and `walletDestinationId` are the IDs of the custody wallets the funds left and reached.',
    test: TRANSFER,
  },
  {
    id: 'transfer.register-date',
    section: 'Wallet transfer',
    line: 59,
    quote: '| registerDate | string, format `YYYY-MM-DD HH:MM:SS.ffffff` |',
    statement: "A transfer's `registerDate` is text in the form `YYYY-MM-DD HH:MM:SS.ffffff`.",
    test: TRANSFER,
  },
  {
    id: 'transfer.statuses',
    section: 'Wallet transfer',
    line: 61,
    quote: 'Transfer status values named in the filter description: `pending`, `completed`, `cancelled`.',
    statement: 'A transfer is `pending`, `completed` or `cancelled`.',
    test: TRANSFER,
  },

  // Bank account
  {
    id: 'account.id',
    section: 'Bank account',
    line: 67,
    quote: '| id | string (uuid) | Unique per registered account. |',
    statement: 'Each registered bank account has its own UUID `id`.',
    test: ACCOUNTS,
  },
  {
    id: 'account.text-fields',
    section: 'Bank account',
    line: 68,
    quote: '| accountHolderName | string | Holder name. |',
    statement: '`accountHolderName`, `accountNickname` and `accountNumber` are text.',
    test: ACCOUNTS,
  },
  {
    id: 'account.as-registered',
    section: 'Bank account',
    line: 69,
    quote: '| accountNickname | string | Label chosen at registration. |',
    statement:
      'The nickname is the label chosen at registration, and the number is as on the bank certificate (leading zeros kept).',
    test: ACCOUNTS,
  },
  {
    id: 'account.type',
    section: 'Bank account',
    line: 71,
    quote: '| accountType | string | `ahorros` or `corriente`. |',
    statement: '`accountType` is `ahorros` or `corriente`.',
    test: ACCOUNTS,
  },
  {
    id: 'account.bank',
    section: 'Bank account',
    line: 72,
    quote: '| bank | object | name (string). |',
    statement: '`bank` is an object with the bank `name`.',
    test: ACCOUNTS,
  },
  {
    id: 'account.country-fiat',
    section: 'Bank account',
    line: 73,
    quote: '| countryFiat | object | symbolFiat (string, fiat currency), countryId (string). |',
    statement: '`countryFiat` is an object of the fiat `symbolFiat` and a text `countryId`.',
    test: ACCOUNTS,
  },
  {
    id: 'account.metadata',
    section: 'Bank account',
    line: 74,
    quote: '| metadata | array | Empty array in responses. |',
    statement: '`metadata` is answered as an empty array.',
    test: ACCOUNTS,
  },
  {
    id: 'account.status',
    section: 'Bank account',
    line: 75,
    quote: '`in_review`, `accepted` observed; an account must be `accepted` to operate.',
    statement: 'An account is `in_review` or `accepted`, and only an `accepted` one can be operated with.',
    test: ACCOUNTS,
  },
  {
    id: 'account.register-date',
    section: 'Bank account',
    line: 76,
    quote: '| registerDate | string | Format `YYYY-MM-DD HH:MM:SS.ffffff`. |',
    statement: "An account's `registerDate` is text in the form `YYYY-MM-DD HH:MM:SS.ffffff`.",
    test: ACCOUNTS,
  },
  {
    id: 'account.owner',
    section: 'Bank account',
    line: 77,
    quote: "Equals the client ID for the client's own account; otherwise the owning user.",
    statement: "An account's `userId` is the client ID for the client's own account, the user's ID otherwise.",
    test: ACCOUNTS,
  },

  // Bank (directory entry)
  {
    id: 'bank.id-text',
    section: 'Bank (directory entry)',
    line: 83,
    quote: 'Delivered as a string.',
    statement: "A bank's `id` is delivered as text.",
    test: BANKS,
  },
  {
    id: 'bank.id-as-bank-id',
    section: 'Bank (directory entry)',
    line: 83,
    quote: 'Used as bankId when registering a bank account.',
    statement: "A bank's `id` is what registering a bank account takes as `bankId`.",
    untestable: notShown(
      'The call that registers a bank account is not shown; the sandbox registers accounts through its control API.',
    ),
  },
  {
    id: 'bank.code-name',
    section: 'Bank (directory entry)',
    line: 84,
    quote: '| code | string | Bank code used by the payment rail. |',
    statement: 'A bank has a text `code` (its code on the payment rail) and a text `name`.',
    test: BANKS,
  },
  {
    id: 'bank.status-text',
    section: 'Bank (directory entry)',
    line: 86,
    quote: 'delivered as the text `true`.',
    statement: 'A bank\'s `status` is the text `"true"`, not a boolean.',
    test: BANKS,
  },

  // Registered user
  {
    id: 'user.top-level',
    section: 'Registered user',
    line: 90,
    quote: 'Top level: user_id (uuid), status (string, `success`), message (string), data (object).',
    statement: 'A registration answers a UUID `user_id`, `status` `success`, a text `message` and the `data` record.',
    test: REGISTERED,
  },
  {
    id: 'user.data-fields',
    section: 'Registered user',
    line: 92,
    quote: 'constitutionDate (string, ISO 8601 timestamp)',
    statement:
      '`data` carries the person, both statuses, a UUID `id`, a boolean `isVip`, `tradeName` and `clientType` text or null, `constitutionDate` as an ISO 8601 timestamp, `constitutionCountryId`, `constitutionCity` and `constitutionState` text, and an array `countriesOperation`.',
    test: REGISTERED,
  },
  {
    id: 'user.person-document',
    section: 'Registered user',
    line: 94,
    quote: 'identificationType (lowercase document type)',
    statement: "The person's `identificationType` is the document type in lowercase (`CC` is answered `cc`).",
    test: PERSON,
  },
  {
    id: 'user.person-names',
    section: 'Registered user',
    line: 94,
    quote: 'lastName (holds the second surname), middleName (holds the second given name)',
    statement: '`lastName` holds the second surname and `middleName` the second given name.',
    test: PERSON,
  },
  {
    id: 'user.person-types',
    section: 'Registered user',
    line: 94,
    quote: 'isJuridic (boolean or null)',
    statement:
      'The person has a UUID `id`, `isJuridic` boolean or null, a boolean `pep`, and arrays `contactsData`, `additionalInfo`, `personFiles` and `persons`.',
    test: PERSON,
  },
  {
    id: 'user.contacts',
    section: 'Registered user',
    line: 96,
    quote: 'dataTypeContact (`email` or `phone`)',
    statement:
      'Each contact is an `email` or a `phone`, with a boolean `isVerified` and the UUID `personId` of the person.',
    test: CONTACTS,
  },
  {
    id: 'user.contact-phone-international',
    section: 'Registered user',
    line: 96,
    quote: 'phone in international format',
    statement:
      'The phone contact is answered in international format (`+` and the country code), whatever format it was registered in.',
    test: CONTACTS,
    settled:
      'The sandbox echoed `cell_phone_number` as sent (`3104567890`); it now answers `+573104567890`, a number without a country code taken to be Colombian (the sandbox, the description unchanged).',
  },
  {
    id: 'user.additional-info',
    section: 'Registered user',
    line: 97,
    quote: 'SKUs observed: `onrampmultiplier`, `offrampmultiplier` (infoType `number`).',
    statement:
      'The person carries `additionalInfo` items (SKU, name, type, value, `personId`); the `onrampmultiplier` and `offrampmultiplier` SKUs, of type `number`, are observed.',
    test: ADDITIONAL,
    settled:
      'The sandbox answered an empty `additionalInfo`; it now carries both multipliers, typed `number`, value `"1"`, as the description\'s example does (the sandbox, the description unchanged).',
  },

  // Payout
  {
    id: 'payout.fields',
    section: 'Payout',
    line: 103,
    quote: '| id | string (uuid) |',
    statement: 'A payout has a UUID `id`, a text `currency`, a number `amount` and the rail used as `paymentMethod`.',
    test: PAYOUT,
  },
  {
    id: 'payout.initial',
    section: 'Payout',
    line: 104,
    quote: '| status | string; initial value `PENDING` |',
    statement: 'A new payout is `PENDING`.',
    test: PAYOUT,
  },

  // On-ramp operation
  {
    id: 'onramp.operation-fields',
    section: 'On-ramp operation',
    line: 111,
    quote: 'Fields: id, userId, numberCode, originId, destinationId',
    statement:
      'The operation carries id, userId, numberCode, originId, destinationId, both symbols, both amounts, rate, paymentMethod, status, direction, registerDate, depositInstructions, treasuryItems and events.',
    test: ONRAMP,
  },
  {
    id: 'onramp.tier-escalation-fields',
    section: 'On-ramp operation',
    line: 113,
    quote: 'tierEscalation fields: actionType',
    statement:
      'A tier escalation has an `actionType` (`FORM_URL`, `QR_APP`, `VIDEO_KYC`, `DOC_UPLOAD`, `NOTIFY_ONLY` or `BLOCK`), an `actionPayload`, a `message` and `expiresAt`.',
    test: ESCALATION,
  },
  {
    id: 'onramp.deposit-info-fields',
    section: 'On-ramp operation',
    line: 115,
    quote: 'depositInfo fields: paymentMethod, the applied quote, depositInstructions.',
    statement: '`depositInfo` carries the `paymentMethod`, the applied quote and the `depositInstructions`.',
    test: ONRAMP,
  },

  // Integration endpoint, webhook, KYC link
  {
    id: 'endpoint.created',
    section: 'Integration endpoint',
    line: 119,
    quote: 'Created record returns: id (uuid), isActive (boolean), registerDate (ISO 8601 timestamp set on creation).',
    statement:
      'Registering an endpoint answers a UUID `id`, a boolean `isActive` and `registerDate`, the ISO 8601 time of the creation.',
    test: ENDPOINT,
  },
  {
    id: 'webhook.fields',
    section: 'Webhook (business API)',
    line: 123,
    quote: 'Fields: id (uuid), method (HTTP method, e.g. POST)',
    statement:
      'A webhook has a UUID `id`, an HTTP `method` (POST), a `process` (`ramp`, `compliance` or `wallet_transfer`), a boolean `status` (`false` is inactive), a `url` and a UUID `userId`.',
    test: WEBHOOK_DELETE,
  },
  {
    id: 'kyc.url',
    section: 'KYC link',
    line: 127,
    quote: 'One field: url (string), the verification link to give to the user.',
    statement: 'A KYC link is an object with one field, the `url` to give to the user.',
    test: KYC,
  },
  {
    id: 'fields.not-shown',
    section: 'KYC link',
    line: 129,
    quote: 'Fields inside depositInstructions, treasuryItems, events, actionPayload',
    statement:
      'The insides of depositInstructions, treasuryItems, events, actionPayload, personFiles, persons and countriesOperation, the values of trackType, walletTransferType and operationStatus, and the created wallet transfer record.',
    untestable: notShown('The source shows their names only; what the sandbox puts there is its own choice.'),
  },

  // ## States and transitions
  {
    id: 'states.wallet',
    section: 'States and transitions',
    line: 135,
    quote: '| Custody wallet | Create custody wallet | Owner user is approved | `accepted` |',
    statement:
      'Creating a custody wallet for an approved owner gives an `accepted` wallet; an owner not approved is refused.',
    test: NOT_APPROVED,
  },
  {
    id: 'states.user',
    section: 'States and transitions',
    line: 136,
    quote: 'status `pending`, complianceStatus `pending`',
    statement:
      'A registered user starts with `status` and `complianceStatus` both `pending`, and the answer carries the record.',
    test: REGISTERED,
  },
  {
    id: 'states.payout',
    section: 'States and transitions',
    line: 137,
    quote: 'Destination account is APPROVED, funds available',
    statement:
      "A payout to an approved destination with the funds available is `PENDING`, and the user's balance is debited.",
    test: PAYOUT,
  },
  {
    id: 'states.webhook-delete',
    section: 'States and transitions',
    line: 138,
    quote: 'Configuration is kept; no more notifications are sent.',
    statement:
      "Deleting a client's webhook sets its `status` to `false` and keeps its configuration; a webhook the client does not have is refused.",
    test: WEBHOOK_DELETE,
  },
  {
    id: 'states.webhook-silent',
    section: 'States and transitions',
    line: 138,
    quote: 'no more notifications are sent.',
    statement: 'A deleted webhook is sent no more notifications.',
    test: PROCESS_DELIVERY,
  },
  {
    id: 'states.endpoint',
    section: 'States and transitions',
    line: 139,
    quote: '| Integration endpoint | Register webhook endpoint | Valid body | isActive as returned in the record |',
    statement:
      'A registered endpoint is active as its record says (`isActive` as sent), and fires for its `triggerEvent`.',
    test: DEFAULT_SCHEDULE,
  },
  {
    id: 'states.account',
    section: 'States and transitions',
    line: 143,
    quote: 'Bank account: `in_review`, `accepted`. Transitions of bank account status: not shown.',
    statement: 'How a bank account moves between `in_review` and `accepted`.',
    untestable: notShown('Transitions are not shown; the sandbox reviews accounts through its control API.'),
  },
  {
    id: 'states.transfer',
    section: 'States and transitions',
    line: 144,
    quote: 'Transitions of wallet transfer status: not shown.',
    statement: 'How a wallet transfer moves between `pending`, `completed` and `cancelled`.',
    untestable: notShown('Transitions are not shown; the sandbox settles transfers through its control API.'),
  },
  {
    id: 'states.approved-destinations',
    section: 'States and transitions',
    line: 145,
    quote: 'Destination bank accounts and external wallets used in payouts and on-ramps must be APPROVED.',
    statement: 'A payout destination account and an on-ramp external wallet must be approved.',
    test: ONRAMP_422,
  },
  {
    id: 'states.after-creation',
    section: 'States and transitions',
    line: 145,
    quote: 'Transitions of user, payout, operation and external wallet states after creation: not shown.',
    statement: 'How users, payouts, operations and external wallets change state after creation.',
    untestable: notShown('Not shown; the sandbox moves them through its control API, its own choice.'),
  },

  // ## Endpoints
  {
    id: 'endpoints.bearer-json',
    section: 'Endpoints',
    line: 149,
    quote: 'Unless noted, requests carry the header `Authorization: Bearer <ACCESS_TOKEN>`. Bodies are JSON.',
    statement: 'Every call needs a bearer token unless noted, and bodies are JSON.',
    test: BEARER,
  },
  {
    id: 'custody.create-path',
    section: 'Business API: create custody wallet',
    line: 157,
    quote: 'userId (uuid, your client ID or an approved user ID)',
    statement: "Creating a custody wallet takes the client's own ID or an approved user's ID as `userId`.",
    test: NOT_APPROVED,
  },
  {
    id: 'custody.create-body',
    section: 'Business API: create custody wallet',
    line: 158,
    quote: 'network (string, optional, `POLYGON` default or `SUI`)',
    statement: '`token` is required; `network` is optional, `POLYGON` by default or `SUI`.',
    test: NETWORKS,
  },
  {
    id: 'custody.create-200',
    section: 'Business API: create custody wallet',
    line: 159,
    quote: '| Response 200 | Custody wallet resource with status `accepted` and isCustodial `true`. |',
    statement: 'Creating a wallet answers 200 with the wallet, `accepted` and custodial.',
    test: WALLET,
  },
  {
    id: 'custody.list',
    section: 'Business API: list custody wallets',
    line: 164,
    quote: 'Response: array of custody wallet resources (address partially masked).',
    statement: "Listing answers an array of the owner's custody wallets, addresses masked.",
    test: WALLET_LIST,
  },
  {
    id: 'custody.balance-owner',
    section: 'Business API: get custody wallet balance',
    line: 168,
    quote: 'userId (approved user or the client)',
    statement: "A balance is read for an approved user's wallet or the client's own; an owner not approved is refused.",
    test: BALANCE_NOT_APPROVED,
  },
  {
    id: 'custody.balance-answer',
    section: 'Business API: get custody wallet balance',
    line: 169,
    quote: 'Response: balance (string decimal), token (string). The balance is read live from the custody provider.',
    statement:
      'A balance answers `balance` as decimal text and the `token`, read live: a deposit shows on the next read.',
    test: BALANCE,
  },
  {
    id: 'custody.balance-path',
    section: 'Business API: get custody wallet balance',
    line: 170,
    quote: 'The path shape is not shown.',
    statement: 'The path of the balance call.',
    untestable: notShown('Not shown; the description infers one and the sandbox serves it.'),
  },
  {
    id: 'transfers.filters',
    section: 'Business API: list wallet transfers',
    line: 176,
    quote: '| status | string | No | Filter, e.g. pending, completed, cancelled. |',
    statement:
      'The list filters by `status`, by a date range (`startDate`, `finalDate`) and by `originWallet`, all optional.',
    test: TRANSFER_LIST,
  },
  {
    id: 'transfers.date-format',
    section: 'Business API: list wallet transfers',
    line: 177,
    quote: '| startDate | string `YYYY-MM-DD` | No | Start of date range. |',
    statement: '`startDate` and `finalDate` are dates `YYYY-MM-DD`.',
    test: DATES,
  },
  {
    id: 'transfers.newest-ten',
    section: 'Business API: list wallet transfers',
    line: 181,
    quote: 'Response: array of wallet transfer resources, newest first, at most 10 items.',
    statement: 'The list is newest first and holds at most 10 transfers.',
    test: TRANSFER_LIST,
  },
  {
    id: 'accounts.list',
    section: 'Business API: list bank accounts',
    line: 186,
    quote: "Query: userId (uuid, optional; filters to one of your users' accounts).",
    statement: "The list answers the client's bank accounts; the optional `userId` keeps one user's.",
    test: ACCOUNTS,
  },
  {
    id: 'banks.public',
    section: 'Business API: bank directory',
    line: 191,
    quote: 'Public: no access token is required. No body, no query.',
    statement: 'The bank directory needs no token.',
    test: BANKS,
  },
  {
    id: 'banks.entries',
    section: 'Business API: bank directory',
    line: 192,
    quote: 'Response: array of bank entries (id, code, name, status).',
    statement: 'The directory answers an array of entries of `id`, `code`, `name` and `status`.',
    test: BANKS,
  },
  {
    id: 'webhooks.delete',
    section: 'Business API: deactivate webhook',
    line: 197,
    quote: 'Response: the updated webhook with status `false`.',
    statement: 'Deactivating a webhook answers the webhook with `status` `false`.',
    test: WEBHOOK_DELETE,
  },
  {
    id: 'webhooks.id-from-list',
    section: 'Business API: deactivate webhook',
    line: 196,
    quote: 'webhook_id (uuid, from the list of webhooks)',
    statement: 'The `webhook_id` deleted is the `id` the list of webhooks shows.',
    test: WEBHOOK_DELETE,
  },
  {
    id: 'register.headers',
    section: 'v1 API: register a user',
    line: 203,
    quote: '`x-integration-register` (required, integration identifier issued by the service operator)',
    statement: 'Registration needs the `x-integration-register` header the operator issued to the client.',
    test: INTEGRATION_HEADER,
  },
  {
    id: 'register.required',
    section: 'v1 API: register a user',
    line: 205,
    quote: '| Body field | Type | Required |',
    statement:
      'Every field the table marks required (names, birth date, phone, e-mail, home_info and each of its fields, document, occupation, incomes, expenses, assets, liabilities, is_pep, kyc_validations, identity_verification, supporting_documents) must be sent.',
    test: REQUIRED,
  },
  {
    id: 'register.blank-second-names',
    section: 'v1 API: register a user',
    line: 209,
    quote: '| second_name | string | Yes (blank if none applies) |',
    statement: '`second_name` and `second_surname` may be blank; the optional fields may be left out.',
    test: FORMATS,
  },
  {
    id: 'register.formats',
    section: 'v1 API: register a user',
    line: 212,
    quote: '| birth_date | string `YYYY-MM-DD` | Yes |',
    statement:
      'Dates are `YYYY-MM-DD`, the e-mail must be valid, `external_user_id` is a UUID, and the numbers and booleans are typed.',
    test: FORMATS,
  },
  {
    id: 'register.document-type',
    section: 'v1 API: register a user',
    line: 217,
    quote: '| document_type | string; allowed value `CC` | Yes |',
    statement: '`document_type` takes `CC` only.',
    test: FORMATS,
  },
  {
    id: 'register.response',
    section: 'v1 API: register a user',
    line: 239,
    quote: 'Response: registered user resource.',
    statement: 'Registration answers the registered user resource.',
    test: REGISTERED,
  },
  {
    id: 'kyc.call',
    section: 'v1 API: generate KYC link',
    line: 244,
    quote: 'Query: template_id (optional, KYC template), custom_metadata_name (optional',
    statement:
      'The KYC link call takes optional `template_id` and `custom_metadata_name`, no body, and answers `{ url }`.',
    test: KYC,
  },
  {
    id: 'kyc.user-from-admin-list',
    section: 'v1 API: generate KYC link',
    line: 243,
    quote: 'Path: user_id (from the admin users list).',
    statement: 'The `user_id` is an ID from the admin users list.',
    test: ADMIN_USERS,
  },
  {
    id: 'payout.body',
    section: 'v1 API: create payout',
    line: 249,
    quote: '| Body field | Type | Required | Notes |',
    statement: '`amount`, `currency` and `destinationId` are required; `paymentMethod` (the rail) is optional.',
    test: PAYOUT_REQUIRED,
  },
  {
    id: 'payout.destination-approved',
    section: 'v1 API: create payout',
    line: 253,
    quote: '| destinationId | uuid | Yes | Destination bank account; must be APPROVED. |',
    statement: 'The destination bank account must be approved.',
    test: PAYOUT_FLOW,
  },
  {
    id: 'payout.rail',
    section: 'v1 API: create payout',
    line: 254,
    quote: '| paymentMethod | string | No | Rail, e.g. ACH, BREB. |',
    statement: "The rail (`ACH`, `BREB`, ...) is optional and answered back as the payout's `paymentMethod`.",
    test: PAYOUT,
  },
  {
    id: 'payout.response',
    section: 'v1 API: create payout',
    line: 256,
    quote: 'Response: payout resource (id, status, currency, amount, paymentMethod).',
    statement: 'Creating a payout answers the payout: id, status, currency, amount, paymentMethod.',
    test: PAYOUT,
  },
  {
    id: 'onramp.path',
    section: 'v1 API: create on-ramp',
    line: 258,
    quote: 'path shape is not shown',
    statement: 'The path of the create on-ramp call.',
    untestable: notShown('Not shown; the description infers one and the sandbox serves it.'),
  },
  {
    id: 'onramp.amount',
    section: 'v1 API: create on-ramp',
    line: 262,
    quote: '| amount | number | Yes | In COP. |',
    statement: '`amount` is required, in COP.',
    test: ONRAMP_DEFAULTS,
  },
  {
    id: 'onramp.symbols',
    section: 'v1 API: create on-ramp',
    line: 263,
    quote: '| symbolOrigin | string | No | Fiat paid (COP). |',
    statement: '`symbolOrigin` (COP) and `symbolDestination` (a stablecoin such as USDC) are optional.',
    test: ONRAMP,
  },
  {
    id: 'onramp.payment-method',
    section: 'v1 API: create on-ramp',
    line: 265,
    quote: '| paymentMethod | string | No | `PSE`, `NEQUI`, `DAVIPLATA`; default `DAVIPLATA`. |',
    statement: '`paymentMethod` is `PSE`, `NEQUI` or `DAVIPLATA`, `DAVIPLATA` by default.',
    test: ONRAMP_DEFAULTS,
  },
  {
    id: 'onramp.bank-code',
    section: 'v1 API: create on-ramp',
    line: 266,
    quote: '| bankCode | string | No | From the admin banks list; required for PSE. |',
    statement: '`bankCode` comes from the admin banks list and is required for PSE.',
    test: ONRAMP_BANKS,
  },
  {
    id: 'onramp.pse-nequi-fields',
    section: 'v1 API: create on-ramp',
    line: 267,
    quote: '| bankName | string | No | For PSE. |',
    statement: '`bankName` and `redirectUrl` go with PSE, `phone` with NEQUI or DAVIPLATA.',
    test: ONRAMP_DEFAULTS,
  },
  {
    id: 'onramp.redirect',
    section: 'v1 API: create on-ramp',
    line: 268,
    quote: '| redirectUrl | string | No | Return address after paying (PSE). |',
    statement: 'After paying by PSE the user is sent back to `redirectUrl`.',
    test: REDIRECT,
  },
  {
    id: 'onramp.destination',
    section: 'v1 API: create on-ramp',
    line: 270,
    quote: 'type `EXTERNAL` and externalWalletId (uuid); the wallet must be registered and APPROVED.',
    statement: '`destination` is required: type `EXTERNAL` and the ID of a registered, approved external wallet.',
    test: ONRAMP_DEFAULTS,
  },
  {
    id: 'onramp.destination-usable',
    section: 'v1 API: create on-ramp',
    line: 270,
    quote: 'the wallet must be registered and APPROVED.',
    statement: 'An external wallet that is not registered or not approved is refused as a destination.',
    test: ONRAMP_422,
  },
  {
    id: 'onramp.execution-mode',
    section: 'v1 API: create on-ramp',
    line: 271,
    quote: '| executionMode | string | No | `NORMAL` (default) or `INVERSE`. |',
    statement: '`executionMode` is `NORMAL` (the default) or `INVERSE`.',
    test: ONRAMP_DEFAULTS,
  },
  {
    id: 'onramp.developer-fee',
    section: 'v1 API: create on-ramp',
    line: 272,
    quote: '| developerFee | number | No | Extra fee charged to your user. |',
    statement: 'An optional `developerFee` is taken.',
    test: ONRAMP,
  },
  {
    id: 'onramp.developer-fee-charged',
    section: 'v1 API: create on-ramp',
    line: 272,
    quote: 'Extra fee charged to your user.',
    statement: 'The `developerFee` is charged to the user on top of the on-ramp.',
    untestable: notShown(
      'How the fee is charged is not shown (added to the deposit, taken from the stablecoin, or a cost item whose fields are not shown); the sandbox takes the field and charges nothing.',
    ),
  },
  {
    id: 'onramp.envelope',
    section: 'v1 API: create on-ramp',
    line: 274,
    quote: 'Response envelope: operation (object), tierEscalation (object or null',
    statement:
      'The answer is `operation`, `tierEscalation` and `depositInfo`; `tierEscalation` is null when the operation fits the tier.',
    test: ONRAMP_TIER,
  },
  {
    id: 'onramp.deposit-info-null',
    section: 'v1 API: create on-ramp',
    line: 274,
    quote: 'depositInfo (object, present when the user must send funds; otherwise null)',
    statement:
      '`depositInfo` is set when the user must send funds (NORMAL) and null when not (INVERSE, paid from the balance).',
    test: ONRAMP_400,
  },
  {
    id: 'endpoint.name',
    section: 'v1 API: register a webhook endpoint',
    line: 280,
    quote: '| name | string | Yes | Unique. |',
    statement: '`name` is required and unique.',
    test: ENDPOINT_REFUSALS,
  },
  {
    id: 'endpoint.direction-method',
    section: 'v1 API: register a webhook endpoint',
    line: 281,
    quote: '| direction | string enum | Yes | `OUTBOUND`. |',
    statement: '`direction` is required and `OUTBOUND`; `httpMethod` is required and `POST`.',
    test: ENDPOINT_REFUSALS,
  },
  {
    id: 'endpoint.url',
    section: 'v1 API: register a webhook endpoint',
    line: 282,
    quote: '| url | string | Yes | Max 500 characters. |',
    statement: '`url` is required, at most 500 characters.',
    test: ENDPOINT_REFUSALS,
  },
  {
    id: 'endpoint.auth-type',
    section: 'v1 API: register a webhook endpoint',
    line: 284,
    quote: '| authType | string enum | No | `NONE`; default `NONE`. |',
    statement: '`authType` is optional, `NONE` by default: the calls carry no credentials.',
    test: NO_AUTH,
  },
  {
    id: 'endpoint.trigger-event',
    section: 'v1 API: register a webhook endpoint',
    line: 285,
    quote: '| triggerEvent | string | No | One of the events in the Events part. |',
    statement: '`triggerEvent` is one of the events the source lists.',
    test: EVENTS,
  },
  {
    id: 'endpoint.timeout-default',
    section: 'v1 API: register a webhook endpoint',
    line: 286,
    quote: '| timeoutMs | number | No | Default 30000; milliseconds. |',
    statement: '`timeoutMs` is optional, 30000 ms by default.',
    test: DEFAULT_SCHEDULE,
  },
  {
    id: 'endpoint.retry-defaults',
    section: 'v1 API: register a webhook endpoint',
    line: 287,
    quote: 'max_attempts (default 3), initial_delay_ms (default 1000), multiplier (default 4)',
    statement: '`retryConfig` is optional: `max_attempts` 3, `initial_delay_ms` 1000 and `multiplier` 4 by default.',
    test: DEFAULT_SCHEDULE,
  },
  {
    id: 'endpoint.sample-fields',
    section: 'v1 API: register a webhook endpoint',
    line: 288,
    quote: '| requestHeaders | object or null | Not described | Null in the sample. |',
    statement: '`requestHeaders` and `payloadMapping` null, and `isActive`, are accepted as in the sample.',
    test: ENDPOINT,
  },
  {
    id: 'endpoint.response',
    section: 'v1 API: register a webhook endpoint',
    line: 292,
    quote: 'Response: id, isActive, registerDate.',
    statement: 'Registering an endpoint answers `id`, `isActive` and `registerDate`.',
    test: ENDPOINT,
  },
  {
    id: 'endpoints.referenced',
    section: 'Referenced, not specified',
    line: 296,
    quote: 'are only referenced by name. Their request and response shapes: not shown.',
    statement:
      'The token calls, infoClient, the client users list, the admin users, accounts and banks lists, create wallet transfer and list webhooks: their shapes; and the success status codes of the v1 calls and of the balance, payout and delete calls.',
    untestable: notShown(
      'Only named: the descriptions keep their bodies open and the sandbox answers its own (listed in its description).',
    ),
  },

  // ## Authentication
  {
    id: 'auth.business-jwt',
    section: 'Authentication',
    line: 300,
    quote: 'HTTP bearer authentication with a JWT access token obtained from POST /api/token.',
    statement: 'Business calls take a bearer JWT from POST /api/token.',
    test: JWT,
  },
  {
    id: 'auth.business-lifetime',
    section: 'Authentication',
    line: 300,
    quote: 'The token is valid 5 minutes.',
    statement: 'A Business token is valid 5 minutes, and refused after.',
    test: TOKEN_EXPIRY,
  },
  {
    id: 'auth.v1-token',
    section: 'Authentication',
    line: 301,
    quote: 'v1 API requests use a bearer access token obtained from POST /api/v1/client/token.',
    statement: "v1 calls take a bearer token from POST /api/v1/client/token; the other family's token is refused.",
    test: OTHER_FAMILY,
  },
  {
    id: 'auth.integration-register',
    section: 'Authentication',
    line: 302,
    quote: 'User registration additionally requires the header `x-integration-register`.',
    statement: 'Registration also needs `x-integration-register`.',
    test: INTEGRATION_HEADER,
  },
  {
    id: 'auth.banks-public',
    section: 'Authentication',
    line: 303,
    quote: 'GET /api/parameters/banks requires no token.',
    statement: 'The bank directory needs no token.',
    test: BANKS,
  },
  {
    id: 'auth.approved-user',
    section: 'Authentication',
    line: 304,
    quote: 'a user that is not approved is refused (the refusal format is not shown).',
    statement:
      "Custody and transfer calls take the client's own ID or an approved user's; a user not approved is refused.",
    test: NOT_APPROVED,
  },
  {
    id: 'auth.outbound-none',
    section: 'Authentication',
    line: 305,
    quote: 'Outbound webhook calls use authType `NONE`',
    statement: 'Outbound webhook calls carry no credentials (`NONE`).',
    test: NO_AUTH,
  },
  {
    id: 'auth.not-shown',
    section: 'Authentication',
    line: 307,
    quote:
      'Request and response shape of the two token endpoints: not shown. Lifetime of the v1 access token: not shown.',
    statement: "The token calls' shapes and the v1 token's lifetime.",
    untestable: notShown('Not shown; the sandbox states its own in its description (24 hours for v1).'),
  },

  // ## Events
  {
    id: 'events.call',
    section: 'Events',
    line: 311,
    quote: "The service calls a registered HTTP endpoint on the client's server (direction OUTBOUND, method POST)",
    statement:
      'When its `triggerEvent` occurs, a registered endpoint is called with POST; other events do not call it.',
    test: NO_AUTH,
  },
  {
    id: 'events.names',
    section: 'Events',
    line: 313,
    quote: '| Area | Events |',
    statement:
      'The events are user.accepted_terms, user.canceled, user.created, user.updated, auth.otp_requested, operation.created, operation.status_updated, operation.transfer.created, operation.transfer.status_updated, wallet.created and the five fiat events.',
    test: EVENTS,
  },
  {
    id: 'events.timeout',
    section: 'Events',
    line: 323,
    quote: 'A call that does not complete within timeoutMs (default 30000 ms) counts as failed.',
    statement: 'A call unanswered within `timeoutMs` (30000 ms by default) failed.',
    test: OWN_SCHEDULE,
  },
  {
    id: 'events.retries',
    section: 'Events',
    line: 324,
    quote: 'On failure the call is retried up to max_attempts (default 3) with exponential backoff',
    statement:
      'A failed call is retried up to `max_attempts`, the first retry `initial_delay_ms` after and each later delay times `multiplier`.',
    test: OWN_SCHEDULE,
  },
  {
    id: 'events.retry-defaults',
    section: 'Events',
    line: 324,
    quote:
      'the first delay is initial_delay_ms (default 1000) and each later delay is multiplied by multiplier (default 4).',
    statement: 'With the defaults: 3 calls in all, 1 s and then 4 s apart.',
    test: DEFAULT_SCHEDULE,
  },
  {
    id: 'events.deleted-webhook',
    section: 'Events',
    line: 325,
    quote: 'Deleting a business-API webhook sets its status to false; it then sends no notifications',
    statement: 'A deleted business webhook has `status` false, is sent nothing more, and keeps its configuration.',
    test: PROCESS_DELIVERY,
  },
  {
    id: 'events.process',
    section: 'Events',
    line: 326,
    quote: 'Business-API webhooks are tied to a process: `ramp`, `compliance`, or `wallet_transfer`.',
    statement: "A business webhook is tied to one process and receives that process's events only.",
    test: PROCESS_DELIVERY,
  },
  {
    id: 'events.not-shown',
    section: 'Events',
    line: 328,
    quote: 'The payload sent for each event: not shown. Which operation emits which event: not shown.',
    statement: 'The payload of each event, and which operation emits which event.',
    untestable: notShown(
      'Not shown; the sandbox chooses an envelope and a mapping and states both in its description.',
    ),
  },

  // ## Errors
  {
    id: 'errors.onramp-400',
    section: 'Errors',
    line: 336,
    quote: '| 400 | Insufficient funds in the origin. |',
    statement: 'An on-ramp whose origin lacks the funds is refused with 400.',
    test: ONRAMP_400,
  },
  {
    id: 'errors.onramp-403',
    section: 'Errors',
    line: 337,
    quote: '| 403 | The user does not exist or is not APPROVED. |',
    statement: 'An on-ramp for a user that does not exist or is not approved is refused with 403.',
    test: ONRAMP_403,
  },
  {
    id: 'errors.onramp-422',
    section: 'Errors',
    line: 338,
    quote: '| 422 | Invalid body; amount is 0 or less; asset pair not enabled for the account',
    statement:
      "An on-ramp with an invalid body, an amount of 0 or less, a pair not enabled, or a destination not registered, not approved or not the user's is refused with 422.",
    test: ONRAMP_422,
  },
  {
    id: 'errors.onramp-tier',
    section: 'Errors',
    line: 338,
    quote: "operation exceeds the user's compliance tier limits.",
    statement: "An on-ramp over the user's compliance tier is refused with 422.",
    test: ONRAMP_TIER,
  },
  {
    id: 'errors.payout-destination',
    section: 'Errors',
    line: 340,
    quote: 'Create payout requires an APPROVED destination account',
    statement: 'A payout to a destination that is not approved is refused.',
    test: PAYOUT_FLOW,
  },
  {
    id: 'errors.not-shown',
    section: 'Errors',
    line: 340,
    quote: 'Error body shape and error codes: not shown.',
    statement:
      'The error body, error codes, the status of a payout refused for its destination, and the errors of every other endpoint.',
    untestable: notShown('Not shown; the sandbox states its own status codes and body in its description.'),
  },

  // ## Limits
  {
    id: 'limits.token',
    section: 'Limits',
    line: 346,
    quote: '| Business access token lifetime | 5 minutes | Business API |',
    statement: 'Business access tokens live 5 minutes.',
    test: TOKEN_EXPIRY,
  },
  {
    id: 'limits.transfers',
    section: 'Limits',
    line: 347,
    quote: '| Wallet transfers returned | At most 10, newest first | GET wallet transfers |',
    statement: 'The transfers list returns at most 10, newest first.',
    test: TRANSFER_LIST,
  },
  {
    id: 'limits.url',
    section: 'Limits',
    line: 348,
    quote: '| Webhook url length | 500 characters max | Register webhook endpoint |',
    statement: 'An endpoint `url` has at most 500 characters.',
    test: ENDPOINT_REFUSALS,
  },
  {
    id: 'limits.timeout',
    section: 'Limits',
    line: 349,
    quote: '| Webhook call timeout | 30000 ms default | Outbound webhook calls |',
    statement: 'An outbound call times out after 30000 ms by default.',
    test: DEFAULT_SCHEDULE,
  },
  {
    id: 'limits.attempts',
    section: 'Limits',
    line: 350,
    quote: '| Webhook attempts | 3 by default | Outbound webhook calls |',
    statement: 'An event is attempted 3 times by default.',
    test: DEFAULT_SCHEDULE,
  },
  {
    id: 'limits.tier',
    section: 'Limits',
    line: 352,
    quote: 'exceeding them gives 422, and tierEscalation describes what the user must do.',
    statement: 'Exceeding the compliance tier gives 422 with a `tierEscalation` saying what the user must do.',
    test: ESCALATION,
  },
  {
    id: 'limits.not-shown',
    section: 'Limits',
    line: 352,
    quote: 'Numeric tier limit values: not shown. Rate limits: not shown.',
    statement: 'The tier limit values, rate limits, and paging of transfers beyond 10.',
    untestable: notShown('Not shown; the sandbox sets tier limits and rate limits through its control API only.'),
  },

  // ## Versioning
  {
    id: 'versioning.business',
    section: 'Versioning',
    line: 356,
    quote: 'The business API description carries version 1.0.',
    statement: 'The Business description is version 1.0.',
    untestable: {
      reason: 'document',
      why: 'A fact of the Business description (its info.version), not of any answer the sandbox gives.',
    },
  },
  {
    id: 'versioning.v1-prefix',
    section: 'Versioning',
    line: 357,
    quote: 'The v1 API carries its version in the path prefix /api/v1.',
    statement: 'The v1 API carries its version in the path prefix /api/v1.',
    test: FAMILIES,
  },
  {
    id: 'versioning.parameter-ids',
    section: 'Versioning',
    line: 358,
    quote: 'Parameter record IDs (banks, networks, tokens) can differ between test and production',
    statement:
      'Bank, network and token record IDs differ between test and production; clients read them from the parameter calls.',
    untestable: {
      reason: 'deployment',
      why: 'The sandbox has one set of records; there is no second deployment to differ.',
    },
  },
  {
    id: 'versioning.policy',
    section: 'Versioning',
    line: 360,
    quote: 'Deprecation and compatibility policy: not shown.',
    statement: 'The deprecation and compatibility policy.',
    untestable: notShown('Not shown.'),
  },
];
