from django.views.decorators.csrf import csrf_exempt
from django.http import JsonResponse

@csrf_exempt
def update_email(request):
    if request.method == "POST":
        request.user.email = request.POST["email"]
        request.user.save()
        return JsonResponse({"status": "ok"})
