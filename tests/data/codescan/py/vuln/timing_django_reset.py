@require_POST
def confirm_reset(request, uid):
    user = get_object_or_404(User, pk=uid)
    if request.POST.get("token") != user.profile.reset_token:
        return HttpResponseForbidden("invalid token")
    form = SetPasswordForm(user, request.POST)
    if not form.is_valid():
        return render(request, "accounts/reset_confirm.html", {"form": form}, status=400)
    form.save()
    user.profile.reset_token = None
    user.profile.save(update_fields=["reset_token"])
    return redirect("login")
