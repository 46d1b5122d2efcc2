// The operation each API family's client calls for a token when it is given `auth: { credentials }`, with the
// credentials as its JSON body, by family. The clients take it from here, and so does `ramp-api usage`, which
// records that call as one the consumer makes. An enum: a bundler puts its values in place, so the clients
// weigh what they would with the names written in them.
export enum TokenOperation {
  v1 = 'createClientToken',
  business = 'createToken',
}
