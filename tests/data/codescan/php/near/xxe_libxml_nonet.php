<?php
function parseFeed(string $xml): ?SimpleXMLElement
{
    $previous = libxml_use_internal_errors(true);
    $doc = simplexml_load_string($xml, 'SimpleXMLElement', LIBXML_NONET | LIBXML_NOCDATA);
    libxml_use_internal_errors($previous);
    return $doc === false ? null : $doc;
}
