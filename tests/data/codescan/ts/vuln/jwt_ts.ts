export function getUser(req: Request): User | null {
  const token = req.cookies['token'];
  const decoded = jwt.decode(token) as JwtPayload | null;
  return decoded ? { id: decoded.sub!, role: decoded.role } : null;
}
