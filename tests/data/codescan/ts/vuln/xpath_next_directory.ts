import { DOMParser } from '@xmldom/xmldom';
import * as xpath from 'xpath';
import { NextRequest, NextResponse } from 'next/server';

export async function GET(req: NextRequest) {
  const dept = req.nextUrl.searchParams.get('dept') ?? '';
  const doc = new DOMParser().parseFromString(await loadDirectoryXml(), 'text/xml');
  const nodes = xpath.select(`//employee[department='${dept}']/name/text()`, doc) as Node[];
  return NextResponse.json(nodes.map((n) => n.nodeValue));
}
