import xml.etree.ElementTree as ET

def parse_feed(raw_xml):
    root = ET.fromstring(raw_xml)
    return [item.findtext("title") for item in root.iter("item")]
