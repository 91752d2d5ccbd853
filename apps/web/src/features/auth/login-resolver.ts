import { zodResolver } from '@hookform/resolvers/zod';
import { loginRequestSchema } from '@lumi/contract';

/** The sign-in form checks the contract's own schema, so its messages match the server's. */
export const loginResolver = zodResolver(loginRequestSchema);
