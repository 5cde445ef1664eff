        var reader = new XmlTextReader(input);
        reader.DtdProcessing = DtdProcessing.Parse;
        while (reader.Read()) { Handle(reader); }
