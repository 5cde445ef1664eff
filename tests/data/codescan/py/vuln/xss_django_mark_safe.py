from django.shortcuts import render
from django.utils.safestring import mark_safe

def preview(request):
    signature = request.POST.get("signature", "")
    context = {"signature": mark_safe(signature)}
    return render(request, "accounts/preview.html", context)
