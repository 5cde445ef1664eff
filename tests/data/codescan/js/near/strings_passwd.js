// Requests containing these are rejected by the firewall middleware below.
const BLOCKED_PATTERNS = ['/etc/passwd', '../', '%2e%2e%2f'];
const PASSWORD_PLACEHOLDER = 'Enter your password';
const passwordMinLength = 12;
module.exports = { BLOCKED_PATTERNS, PASSWORD_PLACEHOLDER, passwordMinLength };
