/** The JSF algorithms (JWA names, with RFC 8037's curves named individually as JSF requires). */
export type KeyFamily = 'EC' | 'RSA' | 'OKP' | 'oct';

export interface AlgorithmInfo {
  readonly name: JsfAlgorithm;
  readonly family: KeyFamily;
  /** node:crypto digest name; null for pure EdDSA. */
  readonly hash: 'sha256' | 'sha384' | 'sha512' | null;
  /** EC or OKP curve the key must be on. */
  readonly curve?: 'P-256' | 'P-384' | 'P-521' | 'Ed25519' | 'Ed448';
  readonly pss?: boolean;
  /** Exact signature length in bytes when fixed by the algorithm (ECDSA raw R‖S, EdDSA, HMAC). */
  readonly signatureLength?: number;
}

export const JSF_ALGORITHMS = [
  'ES256',
  'ES384',
  'ES512',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'Ed25519',
  'Ed448',
  'HS256',
  'HS384',
  'HS512',
] as const;

export type JsfAlgorithm = (typeof JSF_ALGORITHMS)[number];

const TABLE: Record<JsfAlgorithm, AlgorithmInfo> = {
  ES256: { name: 'ES256', family: 'EC', hash: 'sha256', curve: 'P-256', signatureLength: 64 },
  ES384: { name: 'ES384', family: 'EC', hash: 'sha384', curve: 'P-384', signatureLength: 96 },
  ES512: { name: 'ES512', family: 'EC', hash: 'sha512', curve: 'P-521', signatureLength: 132 },
  RS256: { name: 'RS256', family: 'RSA', hash: 'sha256' },
  RS384: { name: 'RS384', family: 'RSA', hash: 'sha384' },
  RS512: { name: 'RS512', family: 'RSA', hash: 'sha512' },
  PS256: { name: 'PS256', family: 'RSA', hash: 'sha256', pss: true },
  PS384: { name: 'PS384', family: 'RSA', hash: 'sha384', pss: true },
  PS512: { name: 'PS512', family: 'RSA', hash: 'sha512', pss: true },
  Ed25519: { name: 'Ed25519', family: 'OKP', hash: null, curve: 'Ed25519', signatureLength: 64 },
  Ed448: { name: 'Ed448', family: 'OKP', hash: null, curve: 'Ed448', signatureLength: 114 },
  HS256: { name: 'HS256', family: 'oct', hash: 'sha256', signatureLength: 32 },
  HS384: { name: 'HS384', family: 'oct', hash: 'sha384', signatureLength: 48 },
  HS512: { name: 'HS512', family: 'oct', hash: 'sha512', signatureLength: 64 },
};

export function algorithmInfo(name: string): AlgorithmInfo | undefined {
  return Object.hasOwn(TABLE, name) ? TABLE[name as JsfAlgorithm] : undefined;
}

/** The algorithm a key implies when none is asked for. */
export function defaultAlgorithm(family: KeyFamily, curve?: string): JsfAlgorithm {
  switch (family) {
    case 'EC':
      return curve === 'P-384' ? 'ES384' : curve === 'P-521' ? 'ES512' : 'ES256';
    case 'OKP':
      return curve === 'Ed448' ? 'Ed448' : 'Ed25519';
    case 'RSA':
      return 'RS256';
    case 'oct':
      return 'HS256';
  }
}
