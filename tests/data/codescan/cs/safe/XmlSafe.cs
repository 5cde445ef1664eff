        var settings = new XmlReaderSettings { DtdProcessing = DtdProcessing.Prohibit, XmlResolver = null };
        using var reader = XmlReader.Create(Request.Body, settings);
        var doc = new XmlDocument { XmlResolver = null };
        doc.Load(reader);
