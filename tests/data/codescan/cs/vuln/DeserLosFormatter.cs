        var viewState = Request.Form["state"];
        var obj = new LosFormatter().Deserialize(viewState);
