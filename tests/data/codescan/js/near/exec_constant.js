const version = execSync('git rev-parse --short HEAD').toString().trim();
const branch = execSync('git branch --show-current', { encoding: 'utf8' }).trim();
