import { parseXml } from 'libxmljs2';

export function importFeed(xml: string) {
  const doc = parseXml(xml, { noent: true });
  return doc.find('//entry').map((e) => e.text());
}
