// The operation table of an API family (generated from its description).

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
type HttpMethodName = (typeof HTTP_METHODS)[number];

interface OperationSpec {
  readonly method: HttpMethodName;
  readonly path: string;
  readonly secured: boolean;
}

export type OperationTable = Readonly<Record<string, OperationSpec>>;
