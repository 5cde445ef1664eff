public static XDocument LoadUpload(Stream body)
{
    var settings = new XmlReaderSettings
    {
        DtdProcessing = DtdProcessing.Prohibit,
        XmlResolver = null,
        MaxCharactersFromEntities = 1024
    };
    using var reader = XmlReader.Create(body, settings);
    return XDocument.Load(reader);
}
