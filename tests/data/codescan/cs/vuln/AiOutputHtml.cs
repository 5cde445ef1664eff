        ChatCompletion completion = await _chat.CompleteChatAsync(new UserChatMessage(question));
        var answer = completion.Content[0].Text;
        ViewData["Answer"] = new HtmlString(answer);
        return View();
