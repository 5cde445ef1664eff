        var tpl = Template.Parse("Hello " + displayName + ", {{ order.id }} shipped");
        var text = tpl.Render(new { order });
