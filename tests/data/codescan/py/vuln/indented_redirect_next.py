        if form.is_valid():
            login(request, form.get_user())
            next_url = request.GET.get("next", "/")
            return HttpResponseRedirect(next_url)
