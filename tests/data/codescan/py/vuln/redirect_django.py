def logout_view(request):
    logout(request)
    return HttpResponseRedirect(request.GET.get("return_to"))
