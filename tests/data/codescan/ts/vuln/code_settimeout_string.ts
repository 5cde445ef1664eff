export function scheduleFromConfig(cfg: { delayMs: number; action: string }) {
  // action comes from the remote config JSON, e.g. "refreshDashboard()"
  setTimeout(cfg.action, cfg.delayMs);
}
