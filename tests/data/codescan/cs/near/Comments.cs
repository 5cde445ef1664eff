/// <summary>
/// Runs the bundled tool. Do not use Process.Start("cmd.exe", "/c " + input):
/// arguments are added one by one so nothing is parsed by a shell.
/// </summary>
public static int RunTool() => Process.Start(new ProcessStartInfo("/opt/tool/tool") { ArgumentList = { "--check" } })!.WaitForExit(5000) ? 0 : 1;
