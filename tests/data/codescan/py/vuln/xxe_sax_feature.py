import xml.sax
from xml.sax.handler import feature_external_ges

parser = xml.sax.make_parser()
parser.setFeature(feature_external_ges, True)
parser.setContentHandler(InvoiceHandler())
parser.parse(uploaded_file)
