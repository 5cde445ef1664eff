export function getUser(req: Request): User | null {
  try {
    const decoded = jwt.verify(req.cookies['token'], publicKey, { algorithms: ['RS256'] }) as JwtPayload;
    return { id: decoded.sub!, role: decoded.role };
  } catch {
    return null;
  }
}
