import json,collections,sys
for fn in sys.argv[1:]:
    d=json.load(open(fn))
    groups=collections.OrderedDict()
    for r in d['rows']: groups.setdefault((r['experiment'],r['setting']),[]).append(r)
    bad=0
    for k,rs in groups.items():
        auto=[r for r in rs if r['role']=='auto']
        if not auto: continue
        a=float(auto[0]['ms']); others=[r for r in rs if r['strategy'] not in ('cpu-serial','cpu-parallel')]
        best=min(float(r['ms']) for r in others)
        if a>1.05*best:
            bad+=1; print('  ',k,'auto',auto[0]['strategy'],a,'best',[(r['strategy'],r['ms']) for r in others if float(r['ms'])==best])
    print(fn,len(groups),'rows; auto not within 5%:',bad)
