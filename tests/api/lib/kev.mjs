// CISA KEV catalog files for the tests that add intel through the command line: the catalog's JSON
// shape (title, catalogVersion, count, vulnerabilities), written to a temp directory that is
// removed afterwards, and imported by a server's CLI (bulwark intel import --format kev).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// One catalog entry: a remote code execution in vendor's product unless told otherwise.
export function kevEntry(id, vendor, product = vendor, over = {}) {
  return {
    cveID: id, vendorProject: vendor, product, vulnerabilityName: `${product} RCE`, dateAdded: '2099-01-02',
    shortDescription: 'A remote attacker can run code.', requiredAction: 'Apply updates.', dueDate: '2099-01-23',
    knownRansomwareCampaignUse: 'Unknown', notes: '', cwes: ['CWE-94'], ...over,
  };
}

// Imports the entries through srv's CLI, one catalog file; returns the CLI's output.
export function importKev(srv, entries) {
  const dir = mkdtempSync(join(tmpdir(), 'bulwark-kev-'));
  try {
    const file = join(dir, 'kev.json');
    writeFileSync(file, JSON.stringify({ title: 'KEV', catalogVersion: '1', count: entries.length, vulnerabilities: entries }));
    return srv.cli(['intel', 'import', '--format', 'kev', file]);
  } finally { rmSync(dir, { recursive: true, force: true }); }
}
