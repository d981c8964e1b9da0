import torch, layoutc
x = torch.randn(8, 3, 32, 32)
to_nhwc = layoutc.compile(lambda t: t.contiguous(memory_format=torch.channels_last), x)
y = to_nhwc(x)
print(y.stride(), torch.equal(y, x.contiguous(memory_format=torch.channels_last)))
print(layoutc.explain(to_nhwc, x))
