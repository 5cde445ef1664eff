@method_decorator(csrf_exempt, name="dispatch")
class ProfileUpdateView(LoginRequiredMixin, View):
    def post(self, request):
        form = ProfileForm(request.POST, instance=request.user.profile)
        if form.is_valid():
            form.save()
            return JsonResponse({"ok": True})
        return JsonResponse({"errors": form.errors}, status=400)
