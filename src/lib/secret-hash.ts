// The one hash of token secrets: what the store keeps of a token, and what the limiter and look-ups key on.
import { createHash } from 'node:crypto';

export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');
