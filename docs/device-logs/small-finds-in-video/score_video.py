import json,collections,sys
truth,det=sys.argv[1],sys.argv[2]
T=collections.defaultdict(list)
for l in open(truth):
    d=json.loads(l)
    if d['type']=='truth': T[d['frame']].append((d['box'],d['category']))
def iou(a,b):
    ax,ay,aw,ah=a; bx,by,bw,bh=b
    ix=max(0,min(ax+aw,bx+bw)-max(ax,bx)); iy=max(0,min(ay+ah,by+bh)-max(ay,by)); i=ix*iy
    return i/(aw*ah+bw*bh-i)
tp=fp=0; hit=set()
for l in open(det):
    d=json.loads(l)
    if d.get('type')!='detection': continue
    m=[k for k,(b,c) in enumerate(T[d['frame']]) if iou(d['box'],b)>=0.5 and c==d['category']]
    if m: tp+=1; hit.add((d['frame'],m[0]))
    else: fp+=1
n=sum(len(v) for v in T.values())
print('tp',tp,'fp',fp,'truth',n,'found',len(hit))
