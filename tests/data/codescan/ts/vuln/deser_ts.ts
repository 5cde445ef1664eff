import { unserialize } from 'node-serialize';

export function restoreState(req: Request) {
  return unserialize(req.body.state);
}
